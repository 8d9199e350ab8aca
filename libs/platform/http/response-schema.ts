import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, DECORATORS } from '@nestjs/swagger';

/** The fields a stored resource's response may close with, in the order they are documented. */
export type ResourceTailField = 'livemode' | 'created_at' | 'updated_at';

const TAIL_DOCS: Record<ResourceTailField, Parameters<typeof ApiProperty>[0]> = {
  livemode: { type: Boolean },
  created_at: { type: String, format: 'date-time' },
  updated_at: { type: String, format: 'date-time' },
};

export interface ResourceResponseOptions {
  /** Documents `object` as the one value of an enum as well as by example. */
  objectEnum?: boolean;
  /** The closing fields; by default `livemode`, `created_at`, `updated_at`. */
  tail?: readonly ResourceTailField[];
}

/**
 * The response schema of a stored resource : `id` (a UUID) and `object` (the
 * resource name) first, the class's own documented fields, then `livemode`, `created_at` and
 * `updated_at` (or the `tail` given). The class declares only its own fields.
 */
export const ResourceResponse =
  (object: string, options: ResourceResponseOptions = {}): ClassDecorator =>
  (target) => {
    const prototype = (target as unknown as Type).prototype as object;
    const own = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ?? []) as string[];
    ApiProperty({ type: String, format: 'uuid' })(prototype, 'id');
    ApiProperty(
      options.objectEnum
        ? { type: String, enum: [object], example: object }
        : { type: String, example: object },
    )(prototype, 'object');
    const tail = options.tail ?? ['livemode', 'created_at', 'updated_at'];
    for (const field of tail) ApiProperty(TAIL_DOCS[field])(prototype, field);
    Reflect.defineMetadata(
      DECORATORS.API_MODEL_PROPERTIES_ARRAY,
      [':id', ':object', ...own, ...tail.map((field) => `:${field}`)],
      prototype,
    );
  };

/**
 * A named list envelope (docs/reference/conventions.md) around `item`, for a response that is a list
 * by itself: `export class ThingListResponse extends ListResponseOf(ThingResponse, '/v1/things') {}`.
 */
export function ListResponseOf(item: Type, url: string) {
  class ListResponse {
    @ApiProperty({ example: 'list' }) object: string;
    @ApiProperty({ type: [item] }) data: unknown[];
    @ApiProperty({ example: false }) has_more: boolean;
    @ApiProperty({ example: url }) url: string;
    @ApiPropertyOptional({ type: 'integer', description: 'Only with include_count=true.' })
    total_count?: number;
  }
  return ListResponse;
}
