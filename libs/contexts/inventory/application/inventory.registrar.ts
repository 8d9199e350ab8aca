import { Injectable, OnModuleInit } from '@nestjs/common';
import { InventoryValuationRegistry } from '#contexts/accounting';
import { OrderCommitmentsRegistry } from '#contexts/sales';
import { BalanceRepository } from '../infrastructure/balance.repository';
import { OrderCommitmentsService } from './order-commitments.service';

/** Registers inventory's side of the ports accounting and sales own: the subledger valuation and the order commitments listener. */
@Injectable()
export class InventoryRegistrar implements OnModuleInit {
  constructor(
    private readonly valuation: InventoryValuationRegistry,
    private readonly orderCommitments: OrderCommitmentsRegistry,
    private readonly balances: BalanceRepository,
    private readonly commitments: OrderCommitmentsService,
  ) {}

  onModuleInit(): void {
    this.valuation.register({ totalValue: () => this.balances.totalValue() });
    this.orderCommitments.register(this.commitments);
  }
}
