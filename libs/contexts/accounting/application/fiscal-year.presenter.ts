import { FiscalYearRecord } from '../infrastructure/accounting.entities';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

export const toFiscalYear = (y: FiscalYearRecord) => ({
  id: y.id,
  object: 'fiscal_year' as const,
  name: y.name,
  start_date: y.startDate,
  end_date: y.endDate,
  status: y.status,
  closed_at: isoOrNull(y.closedAt),
  ...resourceTimestamps(y),
});
