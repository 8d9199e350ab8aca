import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a list route's 200: the list envelope around `model`. */
export const ApiListResponse = (model: Type, description = 'Newest first.') =>
  applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description,
      schema: {
        type: 'object',
        required: ['object', 'data', 'has_more', 'url'],
        properties: {
          object: { type: 'string', example: 'list' },
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          has_more: { type: 'boolean', example: false },
          url: { type: 'string', example: '/v1/...' },
          total_count: { type: 'integer', description: 'Only with include_count=true.' },
        },
      },
    }),
  );
