import { Type } from '@nestjs/common';
import {
  referenceListController,
  ReferenceListRoutes,
} from '#platform/reference-lists/reference-lists.controller';
import {
  PAYMENT_TERMS,
  PRICING_LEVELS,
  SALES_CHANNELS,
  UNITS_OF_MEASURE,
} from '../application/reference-lists';
import {
  CreatePaymentTermDto,
  CreatePricingLevelDto,
  CreateSalesChannelDto,
  CreateUnitOfMeasureDto,
  PaymentTermResponse,
  PricingLevelResponse,
  SalesChannelResponse,
  UnitOfMeasureResponse,
  UpdatePaymentTermDto,
  UpdatePricingLevelDto,
  UpdateSalesChannelDto,
  UpdateUnitOfMeasureDto,
} from './reference-list.dto';

const route = (
  definition: ReferenceListRoutes['definition'],
  rest: Omit<ReferenceListRoutes, 'definition'>,
): ReferenceListRoutes => ({
  definition,
  ...rest,
});

export const REFERENCE_LIST_CONTROLLERS: Type[] = [
  route(PAYMENT_TERMS, {
    path: 'payment-terms',
    scope: 'payment_terms',
    tag: 'Payment terms',
    create: CreatePaymentTermDto,
    update: UpdatePaymentTermDto,
    response: PaymentTermResponse,
  }),
  route(UNITS_OF_MEASURE, {
    path: 'units-of-measure',
    scope: 'units_of_measure',
    tag: 'Units of measure',
    create: CreateUnitOfMeasureDto,
    update: UpdateUnitOfMeasureDto,
    response: UnitOfMeasureResponse,
  }),
  route(SALES_CHANNELS, {
    path: 'sales-channels',
    scope: 'sales_channels',
    tag: 'Sales channels',
    create: CreateSalesChannelDto,
    update: UpdateSalesChannelDto,
    response: SalesChannelResponse,
  }),
  route(PRICING_LEVELS, {
    path: 'pricing-levels',
    scope: 'pricing_levels',
    tag: 'Pricing levels',
    create: CreatePricingLevelDto,
    update: UpdatePricingLevelDto,
    response: PricingLevelResponse,
  }),
].map(referenceListController);
