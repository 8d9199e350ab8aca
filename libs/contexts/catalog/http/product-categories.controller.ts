import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: ProductCategoriesService,
  scope: 'product_categories',
  model: ProductCategoryResponse,
  create: [CreateProductCategoryDto, 'Create a product category'],
  list: [
    ProductCategoryListQueryDto,
    'List product categories',
    {
      description: 'Newest first, cursor-paginated; filter parent_id; expand[]=parent.',
      list: ProductCategoryResponse,
    },
  ],
  retrieve: ['Retrieve a product category'],
  update: [
    UpdateProductCategoryDto,
    'Update a product category',
    { description: 'A category cannot move under itself or one of its descendants (400 on parent_id).' },
  ],
  delete: [
    'Delete a product category',
    {
      description: 'Permanent; 409 resource_conflict while products or child categories point to it.',
      returns: DeletedResponse,
    },
  ],
})
export class ProductCategoriesController {}
