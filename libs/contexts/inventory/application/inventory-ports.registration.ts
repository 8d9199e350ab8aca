import { Injectable, OnModuleInit } from '@nestjs/common';
import { InventoryValuationGateway } from '#contexts/accounting';
import { OrderCommitmentsGateway } from '#contexts/sales';
import { BalanceRepository } from '../infrastructure/balance.repository';
import { OrderCommitmentsService } from './order-commitments.service';

/** Registers inventory's side of the ports accounting and sales own: the subledger valuation and the order commitments listener. */
@Injectable()
export class InventoryPortsRegistration implements OnModuleInit {
  constructor(
    private readonly valuation: InventoryValuationGateway,
    private readonly orderCommitments: OrderCommitmentsGateway,
    private readonly balances: BalanceRepository,
    private readonly commitments: OrderCommitmentsService,
  ) {}

  onModuleInit(): void {
    this.valuation.register({ totalValue: () => this.balances.totalValue() });
    this.orderCommitments.register(this.commitments);
  }
}
