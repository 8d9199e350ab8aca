import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { ReturnsService } from '../application/returns.service';
import { ReceiveReturnDto, ReturnReceiptResponse } from './return-receipt.dto';

@ApiTags('Returns')
@Controller('returns')
export class ReturnsController {
  constructor(private readonly returns: ReturnsService) {}

  @Post(':id/receive')
  @HttpCode(200)
  @RequireScopes('returns:write')
  @ApiOperation({
    summary: 'Receive returned goods',
    description:
      'Against a confirmed return (an order with document_type `return`) and a shipped package of its account: units back to stock at the cost they shipped at (serials returned, then available, damaged or quarantined), COGS_REVERSAL and RETURN posted, the package `returned` once every unit came back. Emits return.received.',
  })
  @ApiResponse({ status: 200, type: ReturnReceiptResponse })
  receive(@Param('id') id: string, @Body() body: ReceiveReturnDto) {
    return this.returns.receive(id, body);
  }

  @Get(':id/receipts')
  @RequireScopes('returns:read')
  @ApiOperation({ summary: 'Receipts of a return', description: 'Oldest first; one page.' })
  @ApiListResponse(ReturnReceiptResponse)
  receipts(@Param('id') id: string) {
    return this.returns.list(id);
  }
}
