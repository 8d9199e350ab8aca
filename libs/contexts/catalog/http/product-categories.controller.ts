import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
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

  @Route('POST', '', {
    scopes: 'product_categories:write',
    summary: 'Create a product category',
    returns: ProductCategoryResponse,
  })
  create(@Body() body: CreateProductCategoryDto) {
    return this.categories.create(body);
  }

  @Route('GET', '', {
    scopes: 'product_categories:read',
    summary: 'List product categories',
    description: 'Newest first, cursor-paginated; filter parent_id; expand[]=parent.',
    list: ProductCategoryResponse,
  })
  list(@Query() query: ProductCategoryListQueryDto, @Req() req: Request) {
    return this.categories.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'product_categories:read',
    summary: 'Retrieve a product category',
    returns: ProductCategoryResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.categories.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'product_categories:write',
    summary: 'Update a product category',
    description: 'A category cannot move under itself or one of its descendants (400 on parent_id).',
    returns: ProductCategoryResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateProductCategoryDto) {
    return this.categories.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'product_categories:write',
    summary: 'Delete a product category',
    description: 'Permanent; 409 resource_conflict while products or child categories point to it.',
    returns: DeletedResponse,
  })
  delete(@Param('id') id: string) {
    return this.categories.delete(id);
  }
}
