import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/**
 * The response of an account's child record (an address, a contact): the fields of its create
 * body, then `id`, `object`, `account_id`, its flag (`is_default`, `is_primary`; always present
 * in a response), `livemode` and the timestamps.
 */
export function AccountChildResponse<T extends Type>(body: T, object: string, flag: string) {
  class Response extends body {}
  const documented: [string, Parameters<typeof ApiProperty>[0]][] = [
    ['id', { type: String, format: 'uuid' }],
    ['object', { type: String, example: object }],
    ['account_id', { type: String, format: 'uuid' }],
    [flag, { type: Boolean }],
    ['livemode', { type: Boolean }],
    ['created_at', { type: String, format: 'date-time' }],
    ['updated_at', { type: String, format: 'date-time' }],
  ];
  for (const [field, options] of documented) ApiProperty(options)(Response.prototype, field);
  return Response;
}
