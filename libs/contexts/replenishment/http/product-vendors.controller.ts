import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { ProductVendorsService } from '../application/product-vendors.service';
import { CreateProductVendorDto, ProductVendorResponse, UpdateProductVendorDto } from './product-vendor.dto';
import { toProductVendorResource } from './product-vendor.presenter';

@ApiTags('Product vendors')
@Controller('products')
export class ProductVendorsController {
  constructor(private readonly vendors: ProductVendorsService) {}

  @Route('POST', ':id/vendors', {
    scopes: 'products:write',
    summary: 'Add a vendor to a product',
    description: 'Purchase terms per vendor account: lead time, minimum order quantity, order multiple.',
    returns: ProductVendorResponse,
  })
  async create(@Param('id') id: string, @Body() body: CreateProductVendorDto) {
    return toProductVendorResource(await this.vendors.create(id, body));
  }

  @Route('GET', ':id/vendors', {
    scopes: 'products:read',
    summary: "List a product's vendors",
    list: ProductVendorResponse,
  })
  async list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.vendors.list(id, query);
    return listEnvelope(page.rows.map(toProductVendorResource), page, requestPath(req));
  }

  @Route('GET', ':id/vendors/:vendor_id', {
    scopes: 'products:read',
    summary: 'Retrieve a product vendor',
    returns: ProductVendorResponse,
  })
  async retrieve(
    @Param('id') id: string,
    @Param('vendor_id') vendorId: string,
    @Query() _q: RetrieveQueryDto,
  ) {
    return toProductVendorResource(await this.vendors.retrieve(id, vendorId));
  }

  @Route('PATCH', ':id/vendors/:vendor_id', {
    scopes: 'products:write',
    summary: 'Update a product vendor',
    description: 'vendor_account_id cannot change.',
    returns: ProductVendorResponse,
  })
  async update(
    @Param('id') id: string,
    @Param('vendor_id') vendorId: string,
    @Body() body: UpdateProductVendorDto,
  ) {
    return toProductVendorResource(await this.vendors.update(id, vendorId, body));
  }

  @Route('DELETE', ':id/vendors/:vendor_id', {
    scopes: 'products:write',
    summary: 'Remove a vendor from a product',
  })
  remove(@Param('id') id: string, @Param('vendor_id') vendorId: string) {
    return this.vendors.remove(id, vendorId);
  }
}
