import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: PricingPoliciesService,
  scope: 'products',
  model: PricingPolicyResponse,
  create: [
    CreatePricingPolicyDto,
    'Create a pricing policy',
    { description: 'Emits product.pricing_policy.created.' },
  ],
  list: [
    PricingPolicyListQueryDto,
    'List pricing policies',
    { description: 'Newest first; filters account_id, product_id, active.' },
  ],
  retrieve: ['Retrieve a pricing policy'],
  update: [
    UpdatePricingPolicyDto,
    'Update a pricing policy',
    { description: 'Emits product.pricing_policy.updated; orders already priced keep their prices.' },
  ],
  delete: [
    'Delete a pricing policy',
    {
      description:
        'Permanent, no soft delete: later prices ignore it; orders that applied it keep their copied prices. Emits product.pricing_policy.deleted.',
    },
  ],
})
export class PricingPoliciesController {}
