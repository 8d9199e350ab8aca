import { IsUUID, type ValidationOptions } from 'class-validator';

/**
 * A record id: any 8-4-4-4-12 hex layout (see ID_PATTERN in persistence/ids). The rule is
 * class-validator's uuid rule in its loose form, so the description documents it as
 * `format: uuid` (RFC 9562's layout, whatever the version and variant digits say).
 */
export const IsId = (options?: ValidationOptions) => IsUUID('loose', options);
