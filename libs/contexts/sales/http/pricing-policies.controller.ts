import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { PricingPoliciesService } from '../application/pricing-policies.service';
import {
  CreatePricingPolicyDto,
  PricingPolicyListQueryDto,
  PricingPolicyResponse,
  UpdatePricingPolicyDto,
} from './pricing-policy.dto';

@ApiTags('Pricing policies')
@ApiResource('pricing_policy')
@Controller('pricing-policies')
export class PricingPoliciesController {
  constructor(private readonly policies: PricingPoliciesService) {}

  @Post()
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Create a pricing policy', description: 'Emits product.pricing_policy.created.' })
  @ApiResponse({ status: 201, type: PricingPolicyResponse })
  create(@Body() body: CreatePricingPolicyDto) {
    return this.policies.create(body);
  }

  @Get()
  @RequireScopes('products:read')
  @ApiOperation({
    summary: 'List pricing policies',
    description: 'Newest first; filters account_id, product_id, active.',
  })
  list(@Query() query: PricingPolicyListQueryDto, @Req() req: Request) {
    return this.policies.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Retrieve a pricing policy' })
  @ApiResponse({ status: 200, type: PricingPolicyResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.policies.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Update a pricing policy',
    description: 'Emits product.pricing_policy.updated; orders already priced keep their prices.',
  })
  @ApiResponse({ status: 200, type: PricingPolicyResponse })
  update(@Param('id') id: string, @Body() body: UpdatePricingPolicyDto) {
    return this.policies.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Delete a pricing policy',
    description:
      'Permanent, no soft delete: later prices ignore it; orders that applied it keep their copied prices. Emits product.pricing_policy.deleted.',
  })
  delete(@Param('id') id: string) {
    return this.policies.delete(id);
  }
}
