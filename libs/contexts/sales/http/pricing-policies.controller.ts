import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
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

  @Route('POST', '', {
    scopes: 'products:write',
    summary: 'Create a pricing policy',
    description: 'Emits product.pricing_policy.created.',
    returns: PricingPolicyResponse,
  })
  create(@Body() body: CreatePricingPolicyDto) {
    return this.policies.create(body);
  }

  @Route('GET', '', {
    scopes: 'products:read',
    summary: 'List pricing policies',
    description: 'Newest first; filters account_id, product_id, active.',
  })
  list(@Query() query: PricingPolicyListQueryDto, @Req() req: Request) {
    return this.policies.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'products:read',
    summary: 'Retrieve a pricing policy',
    returns: PricingPolicyResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.policies.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'products:write',
    summary: 'Update a pricing policy',
    description: 'Emits product.pricing_policy.updated; orders already priced keep their prices.',
    returns: PricingPolicyResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdatePricingPolicyDto) {
    return this.policies.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'products:write',
    summary: 'Delete a pricing policy',
    description:
      'Permanent, no soft delete: later prices ignore it; orders that applied it keep their copied prices. Emits product.pricing_policy.deleted.',
  })
  delete(@Param('id') id: string) {
    return this.policies.delete(id);
  }
}
