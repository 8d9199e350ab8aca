import { Injectable } from '@nestjs/common';
import { BalancePagesService } from '#contexts/inventory';
import { BalancePageRequest, BalanceSnapshot, BalanceSource } from '../application/balance-source.port';

/** The balance-source port over inventory's public BalancePagesService. */
@Injectable()
export class InventoryBalanceSource implements BalanceSource {
  constructor(private readonly pages: BalancePagesService) {}

  page(request: BalancePageRequest): Promise<{ rows: BalanceSnapshot[]; has_more: boolean }> {
    return this.pages.page(request);
  }
}
