import { AccountingPeriodRecord } from '../infrastructure/accounting.entities';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

export const toPeriod = (p: AccountingPeriodRecord) => ({
  id: p.id,
  object: 'accounting_period' as const,
  name: p.name,
  fiscal_year_id: p.fiscalYearId,
  start_date: p.startDate,
  end_date: p.endDate,
  status: p.status,
  closed_at: isoOrNull(p.closedAt),
  ...resourceTimestamps(p),
});
