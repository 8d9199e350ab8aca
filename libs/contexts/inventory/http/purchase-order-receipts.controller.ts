import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { anyScope } from '#platform/auth/scopes';
import { Route } from '#platform/http/route';
import { PurchaseOrderReceiptsService } from '../application/purchase-order-receipts.service';
import { ReceiptResponse, ReceivePurchaseOrderDto } from './purchase-order-receipt.dto';

@ApiTags('Purchase orders')
@Controller('purchase-orders')
export class PurchaseOrderReceiptsController {
  constructor(private readonly receipts: PurchaseOrderReceiptsService) {}

  @Route('POST', ':id/receive', {
    scopes: anyScope('inventory:write', 'purchasing:write'),
    summary: 'Receive goods of a purchase order',
    description:
      'inventory:write (or purchasing:write). Confirmed purchase orders only. Adds stock at cost (receipt rows), updates the moving average, posts PO_RECEIPT (debit inventory, credit goods received not billed), creates serial records in available, lowers on_order; a fully received PO becomes fulfilled. 422 quantity_exceeds_remaining above what is left to receive. Emits inventory.received and purchasing.purchase_order.received.',
    code: 200,
    returns: ReceiptResponse,
  })
  receive(@Param('id') id: string, @Body() body: ReceivePurchaseOrderDto) {
    return this.receipts.receive(id, body);
  }
}
