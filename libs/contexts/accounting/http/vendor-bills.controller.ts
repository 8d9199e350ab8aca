import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { VendorBillsService } from '../application/vendor-bills.service';
import {
  CreateVendorBillDto,
  VendorBillListQuery,
  VendorBillPaymentDto,
  VendorBillResponse,
} from './vendor-bill.dto';

@ApiTags('Vendor bills')
@ApiResource('vendor_bill')
@Controller('vendor-bills')
export class VendorBillsController {
  constructor(private readonly bills: VendorBillsService) {}

  @Route('POST', '', {
    scopes: 'purchasing:write',
    summary: 'Record a vendor bill',
    description: 'Posts AP_BILL: Dr debit_account_id, Cr payables.',
    returns: VendorBillResponse,
  })
  create(@Body() body: CreateVendorBillDto) {
    return this.bills.create(body);
  }

  @Route('GET', '', {
    scopes: 'purchasing:read',
    summary: 'List vendor bills',
    description: 'Filter status.',
  })
  list(@Query() query: VendorBillListQuery, @Req() req: Request) {
    return this.bills.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'purchasing:read',
    summary: 'Retrieve a vendor bill with its payments',
    returns: VendorBillResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.bills.retrieve(id);
  }

  @Route('POST', ':id/payments', {
    scopes: 'purchasing:write',
    summary: 'Pay a vendor bill',
    description: 'Posts AP_PAYMENT: Dr payables, Cr the bank account. At most the amount due.',
    returns: VendorBillResponse,
  })
  pay(@Param('id') id: string, @Body() body: VendorBillPaymentDto) {
    return this.bills.pay(id, body);
  }

  @Route('POST', ':id/void', {
    scopes: 'purchasing:write',
    summary: 'Void an unpaid vendor bill',
    description: 'Posts the bill entry reversed; 409 invalid_state once paid in part or in full.',
    code: 200,
    returns: VendorBillResponse,
  })
  void(@Param('id') id: string) {
    return this.bills.void(id);
  }
}
