import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: VendorBillsService,
  scope: 'purchasing',
  model: VendorBillResponse,
  create: [
    CreateVendorBillDto,
    'Record a vendor bill',
    { description: 'Posts AP_BILL: Dr debit_account_id, Cr payables.' },
  ],
  list: [VendorBillListQuery, 'List vendor bills', { description: 'Filter status.' }],
  retrieve: ['Retrieve a vendor bill with its payments'],
  actions: {
    pay: [
      'Pay a vendor bill',
      {
        path: 'payments',
        input: VendorBillPaymentDto,
        code: 201,
        description: 'Posts AP_PAYMENT: Dr payables, Cr the bank account. At most the amount due.',
      },
    ],
    void: [
      'Void an unpaid vendor bill',
      { description: 'Posts the bill entry reversed; 409 invalid_state once paid in part or in full.' },
    ],
  },
})
export class VendorBillsController {}
