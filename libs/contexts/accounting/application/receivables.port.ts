import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';

/** An invoice with an amount still due, as the sales context sees it. */
export interface OpenReceivable {
  invoiceId: string;
  accountId: string;
  currency: string;
  total: Decimal;
  amountDue: Decimal;
}

export interface DepositApplication {
  invoiceId: string;
  amount: Decimal;
}

/**
 * What accounting needs from the documents that own receivables (invoices). The sales
 * context implements it and registers it at start-up, so accounting never reads sales tables
 * and the two modules do not import each other. Every method joins the caller's transaction.
 */
export interface ReceivablesPort {
  /** The listed invoices of the account that are open (amount due > 0), locked for update; others are omitted. */
  findOpenInvoices(accountId: string, invoiceIds: string[]): Promise<OpenReceivable[]>;
  /**
   * Records one payment of the account applied to the invoices (updating their payment status)
   * without posting to the ledger: the caller posts the deposit. Returns the payment id.
   */
  recordDepositPayment(input: {
    accountId: string;
    applications: DepositApplication[];
    paymentMethod: string | null;
    reference: string;
  }): Promise<{ paymentId: string }>;
  /** Adds an unapplied amount to the account's customer credit balance. */
  addCustomerCredit(accountId: string, amount: Decimal, reference: string): Promise<void>;
  /** Sum of the amounts due of open invoices dated on or before `asOf` (YYYY-MM-DD): the AR subledger. */
  openReceivablesBalance(asOf: string): Promise<Decimal>;
  /**
   * Optional: some open invoices of the caller's entity and mode, oldest first. Only the QA seed uses it,
   * to build its `bank_deposit` fixture from real invoices; without it the fixture is left out.
   */
  listOpenInvoices?(limit: number): Promise<OpenReceivable[]>;
}

/** Holds the registered ReceivablesPort; accounting asks it for the port when it needs one. */
@Injectable()
export class ReceivablesRegistry {
  private implementation?: ReceivablesPort;

  register(implementation: ReceivablesPort): void {
    this.implementation = implementation;
  }

  get port(): ReceivablesPort {
    if (!this.implementation)
      throw new Error('No ReceivablesPort is registered (the sales context provides it)');
    return this.implementation;
  }

  get registered(): boolean {
    return this.implementation !== undefined;
  }
}
