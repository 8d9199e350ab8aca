import type Decimal from 'decimal.js';
import { ValueTransformer } from 'typeorm';
import { Money } from '#platform/domain/money';

/** numeric(19,4) column <-> Decimal. PostgreSQL returns numerics as strings, so no float ever appears. */
export const moneyTransformer: ValueTransformer = {
  to: (value: Decimal | string | number | null | undefined) =>
    value === null || value === undefined ? value : new Money(value).toFixed(4),
  from: (value: string | null) => (value === null || value === undefined ? null : new Money(value)),
};
