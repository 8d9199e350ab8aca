import { Injectable, Logger } from '@nestjs/common';
import { AccountingSettingsService, businessDay, latestBusinessDay } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { RequestContext } from '#platform/tenancy/request-context';
import { Clock } from '#platform/time/clock';
import { addDays, isPastDue, lateFeeAmount, lateFeesDue } from '../domain/collections';
import { isIssuedStatus } from '../domain/order';
import { SalesError } from '../domain/sales-error';
import { OrderRepository } from '../infrastructure/order.repository';
import { OrderChanges } from './order-changes.service';
import { OrdersService } from './orders.service';
import { InvoiceOrder } from './orders/invoice-order';

/** How far ahead of its business day the test helper can run an entity's sweep. */
export const MAX_ADVANCE_DAYS = 366;

export interface CollectionsRun {
  /** Invoices marked overdue by this run. */
  overdue: number;
  /** Late-fee invoices issued by this run. */
  late_fees: number;
  /** Invoices skipped because another run held them, or that failed (retried next run). */
  skipped: number;
}

/**
 * Collections: finds issued invoices past their due date (in their entity's time zone), marks
 * them overdue once (invoice.overdue) and charges the entity's late fee (a late-fee invoice,
 * posted as LATE_FEE, invoice.late_fee_applied). Each invoice is handled in its own transaction
 * under its row lock taken with SKIP LOCKED, and the facts are re-read under that lock, so any
 * number of runs, on any number of replicas, at the same time or one after the other, mark and
 * charge each invoice once.
 */
@Injectable()
export class CollectionsService {
  private readonly logger = new Logger(CollectionsService.name);

  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly documents: OrdersService,
    private readonly invoicing: InvoiceOrder,
    private readonly changes: OrderChanges,
    private readonly events: EventPublisher,
    private readonly settings: AccountingSettingsService,
    private readonly profiles: EntityProfiles,
    private readonly clock: Clock,
  ) {}

  /** One sweep over every entity as of `now` (the clock's instant unless given). */
  async runDue(now: Date = this.clock.date()): Promise<CollectionsRun> {
    const candidates = await this.orders.collectionCandidatesAcrossEntities(latestBusinessDay(now));
    const profiles = await this.profiles.findMany(candidates.map((c) => c.entityId));
    const run: CollectionsRun = { overdue: 0, late_fees: 0, skipped: 0 };
    for (const candidate of candidates) {
      const profile = profiles.get(candidate.entityId);
      if (!profile) continue;
      const caller = {
        entityId: candidate.entityId,
        entityCode: profile.code,
        livemode: candidate.livemode,
        scopes: ['*'],
      };
      await RequestContext.runAsSystem(
        caller,
        () => this.collectInto(run, candidate.id, businessDay(profile.timezone, now), now),
        'collections',
      );
    }
    return run;
  }

  /**
   * The sweep over the caller's own entity and mode only, as if its business day were `asOf`
   * (not before its real business day): what the hourly sweep does on that day, done now. The
   * test-mode helper POST /v1/test_helpers/collections/run calls it, so an integrator sees an
   * invoice go overdue and a late fee charged without waiting for the due date.
   */
  async runForCaller(
    asOf: string | undefined,
    now: Date = this.clock.date(),
  ): Promise<CollectionsRun & { as_of: string }> {
    const caller = RequestContext.caller();
    if (caller.livemode)
      throw new SalesError('test_mode_only', {
        hint: 'Test helpers act on test-mode records only: call them with a test key (key_test_...).',
      });
    const today = await this.settings.currentBusinessDay();
    const day = asOf ?? today;
    const latest = addDays(today, MAX_ADVANCE_DAYS);
    if (day < today || day > latest)
      throw new SalesError('parameter_invalid', {
        param: 'as_of',
        hint: `as_of must be a business day from today (${today}) to ${latest}; the sweep cannot run in the past.`,
      });
    return { as_of: day, ...(await this.sweepCaller(caller, day, now)) };
  }

  private async sweepCaller(
    caller: { entityId: string; livemode: boolean },
    asOf: string,
    now: Date,
  ): Promise<CollectionsRun> {
    const candidates = (await this.orders.collectionCandidatesAcrossEntities(addDays(asOf, 1))).filter(
      (c) => c.entityId === caller.entityId && c.livemode === caller.livemode,
    );
    const run: CollectionsRun = { overdue: 0, late_fees: 0, skipped: 0 };
    for (const candidate of candidates) await this.collectInto(run, candidate.id, asOf, now);
    return run;
  }

  /** One invoice handled and counted into `run`; a failure is counted as skipped and logged. */
  private async collectInto(run: CollectionsRun, id: string, today: string, now: Date): Promise<void> {
    try {
      const outcome = await this.collect(id, today, now);
      if (outcome === 'held') run.skipped += 1;
      else {
        if (outcome.markedOverdue) run.overdue += 1;
        if (outcome.charged) run.late_fees += 1;
      }
    } catch (error) {
      // A closed period or an inactive account leaves the invoice as it was; the next run retries.
      run.skipped += 1;
      this.logger.warn(`collections: invoice ${id} could not be handled: ${String(error)}`);
    }
  }

  /** One invoice on the entity's business day `today`, under its row lock ('held' when another run has it). */
  private collect(
    id: string,
    today: string,
    now: Date,
  ): Promise<'held' | { markedOverdue: boolean; charged: boolean }> {
    return this.tx.run(async () => {
      const invoice = await this.orders.lockUnlessHeld(id);
      if (!invoice) return 'held';
      const open =
        invoice.documentType === 'invoice' && isIssuedStatus(invoice.orderStatus) && invoice.amountDue.gt(0);
      if (!open || !invoice.dueDate || !isPastDue(invoice.dueDate, today))
        return { markedOverdue: false, charged: false };
      let markedOverdue = false;
      if (invoice.collectionStatus !== 'overdue') {
        const before = await this.changes.presentOne(invoice);
        invoice.collectionStatus = 'overdue';
        invoice.overdueAt = now;
        const resource = await this.changes.presentOne(await this.orders.save(invoice));
        await this.events.publish('invoice.overdue', resource, {
          collection_status: before.collection_status,
          overdue_at: before.overdue_at,
        });
        markedOverdue = true;
      }
      const policy = await this.settings.lateFeePolicy();
      const due = lateFeesDue(policy, invoice.dueDate, today);
      if (due <= (invoice.lateFeesCharged ?? 0)) return { markedOverdue, charged: false };
      // Periods missed while nothing ran are not charged after the fact: one fee now, count caught up.
      invoice.lateFeesCharged = due;
      await this.orders.save(invoice);
      const fee = lateFeeAmount(policy, invoice.amountDue);
      if (fee.lte(0)) return { markedOverdue, charged: false };
      const draft = await this.documents.create(
        {
          document_type: 'late_fee_invoice',
          account_id: invoice.accountId,
          lines: [
            {
              description: `Late fee: invoice ${invoice.id} overdue since ${invoice.dueDate}`,
              quantity: 1,
              unit_price: fee.toNumber(),
            },
          ],
          metadata: { overdue_invoice_id: invoice.id },
        },
        { sourceOrderId: invoice.id },
      );
      const lateFeeInvoice = await this.invoicing.execute(draft.id);
      await this.events.publish('invoice.late_fee_applied', lateFeeInvoice);
      return { markedOverdue, charged: true };
    });
  }
}
