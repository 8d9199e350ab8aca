import { toJsonNumber } from '#platform/domain/money';
import { money } from '#platform/domain/money';
import { BuildRecord } from '../infrastructure/build.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

const amount = (v: string | null) => (v === null ? null : toJsonNumber(money(v)));

export const toBuildResource = (b: BuildRecord) => ({
  id: b.id,
  object: 'build' as const,
  kit_product_id: b.kitProductId,
  location_id: b.locationId,
  quantity: b.quantity,
  status: b.status,
  components: b.components.map((c) => ({
    product_id: c.product_id,
    quantity_per_kit: c.quantity_per_kit,
    quantity: c.quantity,
    unit_cost: amount(c.unit_cost),
    value: amount(c.value),
  })),
  unit_cost: toJsonNumber(b.unitCost),
  total_cost: toJsonNumber(b.totalCost),
  order_line_id: b.orderLineId,
  journal_entry_id: b.journalEntryId,
  notes: b.notes,
  posted_at: b.postedAt ? b.postedAt.toISOString() : null,
  voided_at: b.voidedAt ? b.voidedAt.toISOString() : null,
  ...resourceTimestamps(b),
});
