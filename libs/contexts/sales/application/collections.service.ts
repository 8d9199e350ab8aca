import { Injectable, Logger } from '@nestjs/common';
import { AccountingSettingsService, businessDay } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { RequestContext } from '#platform/tenancy/request-context';
import { Clock } from '#platform/time/clock';
import { addDays, isPastDue, lateFeeAmount, lateFeesDue } from '../domain/collections';
import { isIssuedStatus } from '../domain/order';
import { OrderRepository } from '../infrastructure/order.repository';
import { OrderChanges } from './order-changes.service';
import { OrdersService } from './orders.service';

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
    private readonly changes: OrderChanges,
    private readonly events: EventPublisher,
    private readonly settings: AccountingSettingsService,
    private readonly profiles: EntityProfiles,
    private readonly clock: Clock,
  ) {}

  /** One sweep over every entity as of `now` (the clock's instant unless given). */
  async runDue(now: Date = this.clock.date()): Promise<CollectionsRun> {
    // No time zone is more than a day ahead of UTC: nothing overdue anywhere is due later than this.
    const candidates = await this.orders.collectionCandidatesAcrossEntities(
      addDays(now.toISOString().slice(0, 10), 1),
    );
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
        async () => {
          try {
            const outcome = await this.collect(candidate.id, businessDay(profile.timezone, now), now);
            if (outcome === 'held') run.skipped += 1;
            else {
              if (outcome.markedOverdue) run.overdue += 1;
              if (outcome.charged) run.late_fees += 1;
            }
          } catch (error) {
            // A closed period or an inactive account leaves the invoice as it was; the next run retries.
            run.skipped += 1;
            this.logger.warn(`collections: invoice ${candidate.id} could not be handled: ${String(error)}`);
          }
        },
        'collections',
      );
    }
    return run;
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
      const lateFeeInvoice = await this.documents.issueLateFee(invoice, fee);
      await this.events.publish('invoice.late_fee_applied', lateFeeInvoice);
      return { markedOverdue, charged: true };
    });
  }
}
