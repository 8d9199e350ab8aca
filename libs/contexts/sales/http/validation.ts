import { ValidateIf } from 'class-validator';

/** The field may be absent; when present it must pass the other rules (null included, so null is refused). */
export const Optional = () => ValidateIf((_, value) => value !== undefined);

/** The field may be absent or null; otherwise it must pass the other rules. */
export const OptionalNullable = () => ValidateIf((_, value) => value !== undefined && value !== null);
