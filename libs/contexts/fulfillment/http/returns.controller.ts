import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ReturnsService } from '../application/returns.service';
import { ReceiveReturnDto, ReturnReceiptResponse } from './return-receipt.dto';
import { StandardRoutes } from '#platform/http/standard-routes';

@ApiTags('Returns')
@Controller('returns')
@StandardRoutes({
  service: 'returns',
  scope: 'returns',
  model: ReturnReceiptResponse,
  actions: {
    receive: [
      'Receive returned goods',
      {
        input: ReceiveReturnDto,
        description:
          'Against a confirmed return (an order with document_type `return`) and a shipped package of its account: units back to stock at the cost they shipped at (serials returned, then available, damaged or quarantined), COGS_REVERSAL and RETURN posted, the package `returned` once every unit came back. Emits return.received.',
      },
    ],
    receipts: [
      'Receipts of a return',
      {
        method: 'GET',
        call: 'list',
        description: 'Oldest first; one page.',
        returns: undefined,
        list: ReturnReceiptResponse,
      },
    ],
  },
})
export class ReturnsController {
  constructor(private readonly returns: ReturnsService) {}
}
