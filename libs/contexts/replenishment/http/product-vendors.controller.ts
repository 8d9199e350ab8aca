import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope } from '../../../platform/http/list/paginate';
import { ProductVendorsService } from '../application/product-vendors.service';
import { CreateProductVendorDto, ProductVendorResponse, UpdateProductVendorDto } from './product-vendor.dto';
import { toProductVendorResource } from './product-vendor.presenter';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Product vendors')
@Controller('products')
export class ProductVendorsController {
  constructor(private readonly vendors: ProductVendorsService) {}

  @Post(':id/vendors')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Add a vendor to a product',
    description: 'Purchase terms per vendor account: lead time, minimum order quantity, order multiple.',
  })
  @ApiResponse({ status: 201, type: ProductVendorResponse })
  async create(@Param('id') id: string, @Body() body: CreateProductVendorDto) {
    return toProductVendorResource(await this.vendors.create(id, body));
  }

  @Get(':id/vendors')
  @RequireScopes('products:read')
  @ApiOperation({ summary: "List a product's vendors" })
  @ApiListResponse(ProductVendorResponse)
  async list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.vendors.list(id, query);
    return listEnvelope(page.rows.map(toProductVendorResource), page, path(req));
  }

  @Get(':id/vendors/:vendor_id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Retrieve a product vendor' })
  @ApiResponse({ status: 200, type: ProductVendorResponse })
  async retrieve(
    @Param('id') id: string,
    @Param('vendor_id') vendorId: string,
    @Query() _q: RetrieveQueryDto,
  ) {
    return toProductVendorResource(await this.vendors.retrieve(id, vendorId));
  }

  @Patch(':id/vendors/:vendor_id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Update a product vendor', description: 'vendor_account_id cannot change.' })
  @ApiResponse({ status: 200, type: ProductVendorResponse })
  async update(
    @Param('id') id: string,
    @Param('vendor_id') vendorId: string,
    @Body() body: UpdateProductVendorDto,
  ) {
    return toProductVendorResource(await this.vendors.update(id, vendorId, body));
  }

  @Delete(':id/vendors/:vendor_id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Remove a vendor from a product' })
  remove(@Param('id') id: string, @Param('vendor_id') vendorId: string) {
    return this.vendors.remove(id, vendorId);
  }
}
