import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { ProductCategoriesService } from '../application/product-categories.service';
import { DeletedResponse } from './product.dto';
import {
  CreateProductCategoryDto,
  ProductCategoryListQueryDto,
  ProductCategoryResponse,
  UpdateProductCategoryDto,
} from './product-category.dto';

@ApiTags('Product categories')
@ApiResource('product_category')
/** `/product-categories` is canonical; `/product_categories` is a deprecated alias (see the OpenAPI description). */
@Controller(['product-categories', 'product_categories'])
export class ProductCategoriesController {
  constructor(private readonly categories: ProductCategoriesService) {}

  @Post()
  @RequireScopes('product_categories:write')
  @ApiOperation({ summary: 'Create a product category' })
  @ApiResponse({ status: 201, type: ProductCategoryResponse })
  create(@Body() body: CreateProductCategoryDto) {
    return this.categories.create(body);
  }

  @Get()
  @RequireScopes('product_categories:read')
  @ApiOperation({
    summary: 'List product categories',
    description: 'Newest first, cursor-paginated; filter parent_id; expand[]=parent.',
  })
  @ApiListResponse(ProductCategoryResponse)
  list(@Query() query: ProductCategoryListQueryDto, @Req() req: Request) {
    return this.categories.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('product_categories:read')
  @ApiOperation({ summary: 'Retrieve a product category' })
  @ApiResponse({ status: 200, type: ProductCategoryResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.categories.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('product_categories:write')
  @ApiOperation({
    summary: 'Update a product category',
    description: 'A category cannot move under itself or one of its descendants (400 on parent_id).',
  })
  @ApiResponse({ status: 200, type: ProductCategoryResponse })
  update(@Param('id') id: string, @Body() body: UpdateProductCategoryDto) {
    return this.categories.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('product_categories:write')
  @ApiOperation({
    summary: 'Delete a product category',
    description: 'Permanent; 409 resource_conflict while products or child categories point to it.',
  })
  @ApiResponse({ status: 200, type: DeletedResponse })
  delete(@Param('id') id: string) {
    return this.categories.delete(id);
  }
}
