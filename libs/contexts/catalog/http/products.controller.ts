import { EmptyBodyDto } from '#platform/http/empty-body.dto';
import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { ProductVariantsService } from '../application/product-variants.service';
import { ProductsService } from '../application/products.service';
import {
  AttachTagDto,
  CreateProductDto,
  CreateVariantDto,
  DeletedResponse,
  ProductListQueryDto,
  ProductResponse,
  ProductVariantResponse,
  UpdateProductDto,
  UpdateVariantDto,
} from './product.dto';

@ApiTags('Products')
@ApiResource('product')
@Controller('products')
@StandardRoutes({
  service: ProductsService,
  scope: 'products',
  model: ProductResponse,
  list: [
    ProductListQueryDto,
    'List products',
    {
      description:
        'Newest first, cursor-paginated; filters sku, type, status, category_id; expand[]=category.',
      list: ProductResponse,
    },
  ],
  retrieve: [
    'Retrieve a product',
    { description: 'Archived products are still returned, with status `archived`.' },
  ],
  update: [
    UpdateProductDto,
    'Update a product',
    { description: 'Archived products cannot be changed (409 invalid_state) until restored.' },
  ],
  delete: [
    'Delete (archive) a product',
    {
      description:
        'Soft delete: the product becomes `archived` and keeps its SKU; `product.deleted` is sent.',
      returns: DeletedResponse,
      call: 'archive',
    },
  ],
  actions: {
    restore: [
      'Restore an archived product',
      {
        description: '409 invalid_state unless the product is archived; sends `product.restored`.',
        body: EmptyBodyDto,
      },
    ],
    addTag: [
      'Attach a tag to a product',
      {
        path: 'tags',
        input: AttachTagDto,
        description: 'Idempotent: attaching an attached tag changes nothing. Sends `product.tag.added`.',
      },
    ],
    removeTag: [
      'Detach a tag from a product',
      {
        method: 'DELETE',
        path: 'tags/:tag_id',
        description: '404 when the tag is not attached. Sends `product.tag.removed`.',
      },
    ],
  },
})
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly variants: ProductVariantsService,
  ) {}

  @Route('POST', '', {
    scopes: 'products:write',
    summary: 'Create a product',
    description: 'SKUs are unique across products and variants of the entity and mode (409 duplicate_sku).',
    response: [
      { status: 201, type: ProductResponse },
      { status: 409, description: '`duplicate_sku` with `param` naming the SKU field.' },
    ],
  })
  create(@Body() body: CreateProductDto) {
    return this.products.create(body);
  }

  @Route('POST', ':id/variants', {
    scopes: 'products:write',
    summary: 'Add a variant to a product',
    description: 'Variant SKUs share the uniqueness of product SKUs.',
    returns: ProductVariantResponse,
  })
  @ApiResource('product_variant')
  addVariant(@Param('id') id: string, @Body() body: CreateVariantDto) {
    return this.variants.add(id, body);
  }

  @Route('GET', ':id/variants', {
    scopes: 'products:read',
    summary: "List a product's variants",
    description: 'Oldest first, all at once (a product has at most a few hundred variants).',
    list: ProductVariantResponse,
  })
  @ApiResource('product_variant')
  listVariants(@Param('id') id: string, @Query() _query: RetrieveQueryDto, @Req() req: Request) {
    return this.variants.list(id, requestPath(req));
  }

  @Route('GET', ':product_id/variants/:id', {
    scopes: 'products:read',
    summary: 'Retrieve a variant',
    returns: ProductVariantResponse,
  })
  @ApiResource('product_variant')
  retrieveVariant(
    @Param('product_id') productId: string,
    @Param('id') id: string,
    @Query() _query: RetrieveQueryDto,
  ) {
    return this.variants.retrieve(productId, id);
  }

  @Route('PATCH', ':product_id/variants/:id', {
    scopes: 'products:write',
    summary: 'Update a variant',
    returns: ProductVariantResponse,
  })
  @ApiResource('product_variant')
  updateVariant(
    @Param('product_id') productId: string,
    @Param('id') id: string,
    @Body() body: UpdateVariantDto,
  ) {
    return this.variants.update(productId, id, body);
  }

  @Route('DELETE', ':product_id/variants/:id', {
    scopes: 'products:write',
    summary: 'Remove a variant',
    description: 'Permanent; the SKU becomes available again.',
    returns: DeletedResponse,
  })
  @ApiResource('product_variant')
  removeVariant(@Param('product_id') productId: string, @Param('id') id: string) {
    return this.variants.remove(productId, id);
  }
}
