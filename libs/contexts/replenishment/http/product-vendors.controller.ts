import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { ProductVendorsService } from '../application/product-vendors.service';
import { CreateProductVendorDto, ProductVendorResponse, UpdateProductVendorDto } from './product-vendor.dto';
import { toProductVendorResource } from './product-vendor.presenter';

@ApiTags('Product vendors')
@Controller('products')
@StandardRoutes({
  service: ProductVendorsService,
  scope: 'products',
  model: ProductVendorResponse,
  path: ':id/vendors',
  id: 'vendor_id',
  present: toProductVendorResource,
  create: [
    CreateProductVendorDto,
    'Add a vendor to a product',
    { description: 'Purchase terms per vendor account: lead time, minimum order quantity, order multiple.' },
  ],
  list: [ListQueryDto, "List a product's vendors", { list: ProductVendorResponse }],
  retrieve: ['Retrieve a product vendor'],
  update: [
    UpdateProductVendorDto,
    'Update a product vendor',
    { description: 'vendor_account_id cannot change.' },
  ],
  delete: ['Remove a vendor from a product', { call: 'remove', handler: 'remove' }],
})
export class ProductVendorsController {}
