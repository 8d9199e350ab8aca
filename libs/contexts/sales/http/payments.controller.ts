import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { PaymentsService } from '../application/payments.service';
import { CreateRefundDto, PaymentListQueryDto, PaymentResponse, RefundResponse } from './payment.dto';

@ApiTags('Payments')
@ApiResource('payment')
@Controller('payments')
@StandardRoutes({
  service: PaymentsService,
  scope: 'payments',
  model: PaymentResponse,
  list: [
    PaymentListQueryDto,
    'List payments',
    {
      description:
        'Newest first; filters order_id, account_id, status. Failed attempts are listed with status failed.',
    },
  ],
  retrieve: ['Retrieve a payment'],
  actions: {
    refund: [
      'Refund a payment',
      {
        path: 'refunds',
        input: CreateRefundDto,
        description:
          "Whole (default) or partial. Posts REFUND (debit receivables, credit cash): the invoice is due again by the amount. A customer_credit payment's refund goes back to the account's credit balance (REFUND credits customer credit instead of cash; a payment_refund credit transaction, account.updated). Emits payment.refunded or payment.partially_refunded. The processor is asked outside any transaction, the refund reserved as `pending` meanwhile; a refusal answers the refund with status `failed` (nothing refunded, its amount free again); no answer is 503 service_unavailable with `refund_id` (the refund stays `pending` and the next refund of the payment after 60 s finishes it).",
        code: 201,
        returns: RefundResponse,
        decorators: [ApiResource('refund')],
      },
    ],
    listRefunds: [
      "List a payment's refunds",
      {
        method: 'GET',
        path: 'refunds',
        query: ListQueryDto,
        description: 'Newest first.',
        decorators: [ApiResource('refund')],
      },
    ],
  },
})
export class PaymentsController {}
