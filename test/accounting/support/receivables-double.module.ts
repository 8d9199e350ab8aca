import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { AccountingCoreModule } from '#contexts/accounting';
import {
  DepositApplication,
  OpenReceivable,
  ReceivablesGateway,
  ReceivablesPort,
} from '../../../libs/contexts/accounting/application/receivables.port';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { QaSeedService } from '#platform/seed/qa-seed.service';
import { RequestContext } from '#platform/tenancy/request-context';

/** The account whose two open invoices the double seeds (live mode), for the `bank_deposit` fixture. */
export const SEEDED_CUSTOMER = '0193a000-0000-7000-8000-00000000c0de';

interface InvoiceRow {
  id: string;
  account_id: string;
  currency: string;
  total: string;
  amount_due: string;
}

/**
 * TEST DOUBLE of the sales context's ReceivablesPort: invoices, payments and customer credits in three
 * tables of its own, written in the caller's transaction. Product code never uses it; the sales context
 * registers the real implementation.
 */
@Injectable()
export class ReceivablesDouble implements ReceivablesPort, OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly dataSource: DataSource,
    private readonly gateway: ReceivablesGateway,
    private readonly qaSeed: QaSeedService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query(`
      CREATE TABLE IF NOT EXISTS test_receivable_invoices (
        id uuid PRIMARY KEY, entity_id uuid NOT NULL, livemode boolean NOT NULL, account_id uuid NOT NULL,
        currency text NOT NULL, total numeric(19,4) NOT NULL, amount_due numeric(19,4) NOT NULL,
        invoice_date date NOT NULL, status text NOT NULL)`);
    await this.dataSource.query(`
      CREATE TABLE IF NOT EXISTS test_receivable_payments (
        id text PRIMARY KEY, entity_id uuid NOT NULL, livemode boolean NOT NULL, account_id uuid NOT NULL,
        applications jsonb NOT NULL, payment_method text, reference text NOT NULL)`);
    await this.dataSource.query(`
      CREATE TABLE IF NOT EXISTS test_receivable_credits (
        id uuid PRIMARY KEY, entity_id uuid NOT NULL, livemode boolean NOT NULL, account_id uuid NOT NULL,
        amount numeric(19,4) NOT NULL, reference text NOT NULL)`);
    this.gateway.register(this);
    this.qaSeed.register({
      name: 'test.receivables',
      seed: ({ as }) =>
        as('live', async () => {
          await this.createInvoice(SEEDED_CUSTOMER, '300.0000');
          await this.createInvoice(SEEDED_CUSTOMER, '450.5000');
          return {};
        }),
    });
  }

  async createInvoice(
    accountId: string,
    amount: string,
    invoiceDate = '2000-01-01',
    currency = 'USD',
  ): Promise<string> {
    const { entityId, livemode } = RequestContext.caller();
    const id = newId();
    await this.tx.transactional.query(
      `INSERT INTO test_receivable_invoices VALUES ($1, $2, $3, $4, $5, $6, $6, $7, 'open')`,
      [id, entityId, livemode, accountId, currency, amount, invoiceDate],
    );
    return id;
  }

  private toOpen = (r: InvoiceRow): OpenReceivable => ({
    invoiceId: r.id,
    accountId: r.account_id,
    currency: r.currency,
    total: money(r.total),
    amountDue: money(r.amount_due),
  });

  async findOpenInvoices(accountId: string, invoiceIds: string[]): Promise<OpenReceivable[]> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: InvoiceRow[] = await this.tx.transactional.query(
      `SELECT * FROM test_receivable_invoices
       WHERE entity_id = $1 AND livemode = $2 AND account_id = $3 AND id::text = ANY($4) AND amount_due > 0 AND status = 'open'
       ORDER BY id FOR UPDATE`,
      [entityId, livemode, accountId, invoiceIds],
    );
    return rows.map(this.toOpen);
  }

  async recordDepositPayment(input: {
    accountId: string;
    applications: DepositApplication[];
    paymentMethod: string | null;
    reference: string;
  }) {
    const { entityId, livemode } = RequestContext.caller();
    const paymentId = `pay_${newId()}`;
    for (const a of input.applications) {
      await this.tx.transactional.query(
        `UPDATE test_receivable_invoices SET amount_due = amount_due - $2, status = CASE WHEN amount_due - $2 = 0 THEN 'paid' ELSE 'open' END
         WHERE id = $1`,
        [a.invoiceId, a.amount.toFixed(4)],
      );
    }
    await this.tx.transactional.query(
      `INSERT INTO test_receivable_payments VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        paymentId,
        entityId,
        livemode,
        input.accountId,
        JSON.stringify(
          input.applications.map((a) => ({ invoice_id: a.invoiceId, amount: a.amount.toFixed(4) })),
        ),
        input.paymentMethod,
        input.reference,
      ],
    );
    return { paymentId };
  }

  async addCustomerCredit(accountId: string, amount: Decimal, reference: string): Promise<void> {
    const { entityId, livemode } = RequestContext.caller();
    await this.tx.transactional.query(`INSERT INTO test_receivable_credits VALUES ($1, $2, $3, $4, $5, $6)`, [
      newId(),
      entityId,
      livemode,
      accountId,
      amount.toFixed(4),
      reference,
    ]);
  }

  async openReceivablesBalance(asOf: string): Promise<Decimal> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { total: string }[] = await this.tx.manager.query(
      `SELECT coalesce(sum(amount_due), 0) AS total FROM test_receivable_invoices
       WHERE entity_id = $1 AND livemode = $2 AND status = 'open' AND invoice_date <= $3`,
      [entityId, livemode, asOf],
    );
    return money(rows[0].total);
  }

  async listOpenInvoices(limit: number): Promise<OpenReceivable[]> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: InvoiceRow[] = await this.tx.manager.query(
      `SELECT * FROM test_receivable_invoices WHERE entity_id = $1 AND livemode = $2 AND status = 'open' ORDER BY invoice_date, id LIMIT $3`,
      [entityId, livemode, limit],
    );
    return rows.map(this.toOpen);
  }

  // What the sales side would show about its own documents: the double's storage, read (and in one
  // case changed) by the tests that drive it, as the caller's entity and mode.

  /** An invoice's amount due (4-decimal text) and status. */
  async invoiceState(id: string): Promise<{ due: string; status: string } | undefined> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { due: string; status: string }[] = await this.tx.manager.query(
      `SELECT amount_due::text AS due, status FROM test_receivable_invoices WHERE id = $1 AND entity_id = $2 AND livemode = $3`,
      [id, entityId, livemode],
    );
    return rows[0];
  }

  /** Settles an invoice outside the deposit flow (as a payment recorded by the sales side would). */
  async markInvoicePaid(id: string): Promise<void> {
    const { entityId, livemode } = RequestContext.caller();
    await this.tx.manager.query(
      `UPDATE test_receivable_invoices SET amount_due = 0, status = 'paid' WHERE id = $1 AND entity_id = $2 AND livemode = $3`,
      [id, entityId, livemode],
    );
  }

  /** The payments recorded for a customer account. */
  async paymentsOf(
    accountId: string,
  ): Promise<{ id: string; account_id: string; payment_method: string | null }[]> {
    const { entityId, livemode } = RequestContext.caller();
    return this.tx.manager.query(
      `SELECT id, account_id, payment_method FROM test_receivable_payments WHERE account_id = $1 AND entity_id = $2 AND livemode = $3`,
      [accountId, entityId, livemode],
    );
  }

  /** The credits given to a customer account (amounts as 4-decimal text). */
  async creditsOf(accountId: string): Promise<{ amount: string; reference: string }[]> {
    const { entityId, livemode } = RequestContext.caller();
    return this.tx.manager.query(
      `SELECT amount::text AS amount, reference FROM test_receivable_credits WHERE account_id = $1 AND entity_id = $2 AND livemode = $3`,
      [accountId, entityId, livemode],
    );
  }
}

@Module({ imports: [AccountingCoreModule], providers: [ReceivablesDouble], exports: [ReceivablesDouble] })
export class ReceivablesDoubleModule {}
