import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ReceiveReturn } from '../application/returns/receive-return';
import { RefundReturn } from '../application/returns/refund-return';
import { Returns } from '../application/returns/returns';
import { ReceiveReturnDto, ReturnReceiptResponse } from './return-receipt.dto';
import { CreateReturnDto, RefundReturnDto, ReturnListQuery, ReturnResponse } from './return.dto';
import { StandardRoutes } from '#platform/http/standard-routes';

@ApiTags('Returns')
@Controller('returns')
@StandardRoutes({
  service: 'returns',
  scope: 'returns',
  model: ReturnResponse,
  create: [
    CreateReturnDto,
    'Authorise a return',
    {
      description:
        'Shipped units of one sales order of the account may come back: each line at most what shipped less what its other returns (not cancelled) hold (422 quantity_exceeds_remaining). Creates the return document (an order of document_type `return`, same id) at the order lines’ prices. Emits return.created.',
    },
  ],
  list: [
    ReturnListQuery,
    'List returns',
    { description: 'Newest first; filters account_id, order_id, status, created_after, created_before.' },
  ],
  retrieve: ['Retrieve a return'],
  actions: {
    receive: [
      'Receive returned goods',
      {
        service: 'receiveReturn',
        input: ReceiveReturnDto,
        returns: ReturnReceiptResponse,
        description:
          'Against an open or partially received return and a shipped package of its order: units back to stock at the cost they shipped at (serials returned, then available, damaged or quarantined), COGS_REVERSAL posted, and RETURN for units not invoiced yet; the package `returned` once every unit came back, the return `received` once every authorised unit did. Emits return.received.',
      },
    ],
    receipts: [
      'Receipts of a return',
      {
        method: 'GET',
        description: 'Oldest first; one page.',
        list: ReturnReceiptResponse,
      },
    ],
    cancel: [
      'Cancel a return',
      {
        description:
          'While nothing came back (status `open`); 409 invalid_state afterwards. Its return document is cancelled too. Emits return.cancelled.',
      },
    ],
    refund: [
      'Refund a return',
      {
        service: 'refundReturn',
        input: RefundReturnDto,
        description:
          "Refunds the value of the units received back that the order's invoice still bills (units that came back before being billed have nothing to refund; default: all of it not refunded yet, at most what the invoice still has due or paid and not refunded; above either is 422 amount_exceeds_limit). Posts CREDIT_MEMO on the invoice, which reverses the revenue of the units it takes back and first reduces the amount due; only the paid rest goes back, as REFUND through the invoice's payments (`original_payment`) or CREDIT_APPLIED to the customer's credit balance (`customer_credit`, account.updated). 409 invalid_state before anything came back, without an issued invoice, or with `original_payment` when the paid part was settled by the sales channel of an imported order (use customer_credit). Emits invoice.updated and return.refunded. Payment refunds go to the processor outside any transaction: a refusal or no answer is 503 service_unavailable (refused: no credit memo; no answer: pending, finished by the next refund of the return after 60 s), and while one waits another refund of a return of the same order is 409 invalid_state.",
      },
    ],
  },
})
export class ReturnsController {
  constructor(
    private readonly returns: Returns,
    private readonly receiveReturn: ReceiveReturn,
    private readonly refundReturn: RefundReturn,
  ) {}
}
