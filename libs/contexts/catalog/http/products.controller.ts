import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
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
import { EmptyBodyDto } from './catalog-validators';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Products')
@ApiResource('product')
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Create a product',
    description: 'SKUs are unique across products and variants of the entity and mode (409 duplicate_sku).',
  })
  @ApiResponse({ status: 201, type: ProductResponse })
  @ApiResponse({ status: 409, description: '`duplicate_sku` with `param` naming the SKU field.' })
  create(@Body() body: CreateProductDto) {
    return this.products.create(body);
  }

  @Get()
  @RequireScopes('products:read')
  @ApiOperation({
    summary: 'List products',
    description: 'Newest first, cursor-paginated; filters sku, type, status, category_id; expand[]=category.',
  })
  @ApiListResponse(ProductResponse)
  list(@Query() query: ProductListQueryDto, @Req() req: Request) {
    return this.products.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('products:read')
  @ApiOperation({
    summary: 'Retrieve a product',
    description: 'Archived products are still returned, with status `archived`.',
  })
  @ApiResponse({ status: 200, type: ProductResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.products.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Update a product',
    description: 'Archived products cannot be changed (409 invalid_state) until restored.',
  })
  @ApiResponse({ status: 200, type: ProductResponse })
  update(@Param('id') id: string, @Body() body: UpdateProductDto) {
    return this.products.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Delete (archive) a product',
    description: 'Soft delete: the product becomes `archived` and keeps its SKU; `product.deleted` is sent.',
  })
  @ApiResponse({ status: 200, type: DeletedResponse })
  delete(@Param('id') id: string) {
    return this.products.archive(id);
  }

  @Post(':id/restore')
  @HttpCode(200)
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Restore an archived product',
    description: '409 invalid_state unless the product is archived; sends `product.restored`.',
  })
  @ApiResponse({ status: 200, type: ProductResponse })
  restore(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.products.restore(id);
  }

  @Post(':id/tags')
  @HttpCode(200)
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Attach a tag to a product',
    description: 'Idempotent: attaching an attached tag changes nothing. Sends `product.tag.added`.',
  })
  @ApiResponse({ status: 200, type: ProductResponse })
  addTag(@Param('id') id: string, @Body() body: AttachTagDto) {
    return this.products.addTag(id, body.tag_id);
  }

  @Delete(':id/tags/:tag_id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Detach a tag from a product',
    description: '404 when the tag is not attached. Sends `product.tag.removed`.',
  })
  @ApiResponse({ status: 200, type: ProductResponse })
  removeTag(@Param('id') id: string, @Param('tag_id') tagId: string) {
    return this.products.removeTag(id, tagId);
  }

  @Post(':id/variants')
  @ApiResource('product_variant')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Add a variant to a product',
    description: 'Variant SKUs share the uniqueness of product SKUs.',
  })
  @ApiResponse({ status: 201, type: ProductVariantResponse })
  addVariant(@Param('id') id: string, @Body() body: CreateVariantDto) {
    return this.products.addVariant(id, body);
  }

  @Get(':id/variants')
  @ApiResource('product_variant')
  @RequireScopes('products:read')
  @ApiOperation({
    summary: "List a product's variants",
    description: 'Oldest first, all at once (a product has at most a few hundred variants).',
  })
  @ApiListResponse(ProductVariantResponse)
  listVariants(@Param('id') id: string, @Query() _query: RetrieveQueryDto, @Req() req: Request) {
    return this.products.listVariants(id, path(req));
  }

  @Get(':product_id/variants/:id')
  @ApiResource('product_variant')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Retrieve a variant' })
  @ApiResponse({ status: 200, type: ProductVariantResponse })
  retrieveVariant(
    @Param('product_id') productId: string,
    @Param('id') id: string,
    @Query() _query: RetrieveQueryDto,
  ) {
    return this.products.retrieveVariant(productId, id);
  }

  @Patch(':product_id/variants/:id')
  @ApiResource('product_variant')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Update a variant' })
  @ApiResponse({ status: 200, type: ProductVariantResponse })
  updateVariant(
    @Param('product_id') productId: string,
    @Param('id') id: string,
    @Body() body: UpdateVariantDto,
  ) {
    return this.products.updateVariant(productId, id, body);
  }

  @Delete(':product_id/variants/:id')
  @ApiResource('product_variant')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Remove a variant', description: 'Permanent; the SKU becomes available again.' })
  @ApiResponse({ status: 200, type: DeletedResponse })
  removeVariant(@Param('product_id') productId: string, @Param('id') id: string) {
    return this.products.removeVariant(productId, id);
  }
}
