import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money, toJsonNumber } from '#platform/domain/money';
import { AccountingError } from '../domain/accounting-error';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';
import { VendorBillRepository } from '../infrastructure/vendor-bill.repository';
import { AccountingSettingsService } from './accounting-settings.service';
import { InventoryValuationRegistry } from './inventory-valuation.port';
import { ReceivablesRegistry } from './receivables.port';

export const SUBLEDGERS = ['ar', 'ap', 'inventory'] as const;
export type Subledger = (typeof SUBLEDGERS)[number];

const CONTROL_ROLE: Record<Subledger, string> = { ar: 'receivables', ap: 'payables', inventory: 'inventory' };

interface Line {
  gl_balance: number | null;
  subledger_balance: number | null;
  variance: number | null;
}

/**
 * Compares each subledger with the balance of its control account as of the entity's business day:
 * AR with the open invoices (receivables port), AP with the open vendor bills, inventory with the
 * sum of the stock balances' values (inventory valuation port). `variance` is GL minus subledger.
 */
@Injectable()
export class SubledgerReconciliationService {
  constructor(
    private readonly settings: AccountingSettingsService,
    private readonly receivables: ReceivablesRegistry,
    private readonly inventory: InventoryValuationRegistry,
    private readonly ledgerAccounts: LedgerAccountRepository,
    private readonly bills: VendorBillRepository,
  ) {}

  /** The report of one subledger or all three; `as_of_date` is refused (400 unsupported_param). */
  async report({ subledger, as_of_date }: { subledger?: Subledger; as_of_date?: unknown }) {
    if (as_of_date !== undefined) {
      throw new AccountingError('unsupported_param', {
        param: 'as_of_date',
        hint: "as_of_date is no longer supported: the report is always as of the entity's current business day.",
      });
    }
    const asOf = await this.settings.currentBusinessDay();
    const selected = subledger ? [subledger] : [...SUBLEDGERS];
    const sections: Partial<Record<Subledger, Line>> = {};
    let reconciled = true;
    for (const name of selected) {
      const gl = await this.glBalance(CONTROL_ROLE[name], asOf);
      const sub = await this.subledgerBalance(name, asOf);
      const variance = gl.minus(sub);
      if (!variance.isZero()) reconciled = false;
      sections[name] = {
        gl_balance: toJsonNumber(gl),
        subledger_balance: toJsonNumber(sub),
        variance: toJsonNumber(variance),
      };
    }
    return {
      object: 'subledger_reconciliation' as const,
      as_of_date: asOf,
      is_reconciled: reconciled,
      ...sections,
    };
  }

  /** The control account's balance on its normal side, over posted entries dated on or before `asOf` (0 without the account). */
  async glBalance(role: string, asOf: string): Promise<Decimal> {
    return money((await this.ledgerAccounts.controlBalance(role, asOf)) ?? 0);
  }

  async subledgerBalance(name: Subledger, asOf: string): Promise<Decimal> {
    if (name === 'ar')
      return this.receivables.registered
        ? money(await this.receivables.port.openReceivablesBalance(asOf))
        : money(0);
    if (name === 'ap') return this.payablesBalance(asOf);
    // Stock moves post on the business day they happen, so the valuation now is the valuation as of today.
    const valuation = this.inventory.port;
    return valuation ? money(await valuation.totalValue()) : money(0);
  }

  /** Bills dated by `asOf`, less those voided by then, less payments made by then. */
  async payablesBalance(asOf: string): Promise<Decimal> {
    return money((await this.bills.openPayablesBalance(asOf)) ?? 0);
  }
}
