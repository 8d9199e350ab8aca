import { IsISO8601, IsString, Matches } from 'class-validator';
import { DATE_PATTERN } from '../domain/calendar';

/** A `YYYY-MM-DD` calendar date that exists. */
export const IsCalendarDate = (): PropertyDecorator => (target, key) => {
  IsString()(target, key);
  Matches(DATE_PATTERN, { message: `${String(key)} must be a YYYY-MM-DD date` })(target, key);
  IsISO8601({ strict: true }, { message: `${String(key)} must be a valid date` })(target, key);
};
