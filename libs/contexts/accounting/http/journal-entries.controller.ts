import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { JournalEntriesService } from '../application/journal-entries.service';
import {
  CreateJournalEntryDto,
  JournalEntryListQuery,
  JournalEntryResponse,
  RejectJournalEntryDto,
  ReverseJournalEntryDto,
  UpdateJournalEntryDto,
} from './accounting.dto';

@ApiTags('Journal entries')
@ApiResource('journal_entry')
@Controller('journal-entries')
export class JournalEntriesController {
  constructor(private readonly entries: JournalEntriesService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Create a journal entry',
    description:
      'status draft or posted (default); posting applies the approval threshold, so the result may be pending_approval.',
  })
  @ApiResponse({ status: 201, type: JournalEntryResponse })
  create(@Body() body: CreateJournalEntryDto, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.entries.create(body, idempotencyKey);
  }

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({
    summary: 'List journal entries',
    description: 'Newest first, without lines; filters batch_id, status, source_type, period_id.',
  })
  list(@Query() query: JournalEntryListQuery, @Req() req: Request) {
    return this.entries.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve a journal entry with its lines' })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.entries.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Update a draft journal entry',
    description: '409 invalid_state unless the entry is a draft.',
  })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  update(@Param('id') id: string, @Body() body: UpdateJournalEntryDto) {
    return this.entries.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Delete a draft journal entry',
    description: '409 invalid_state unless the entry is a draft.',
  })
  delete(@Param('id') id: string) {
    return this.entries.delete(id);
  }

  @Post(':id/post')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Post a draft',
    description: 'Applies the approval threshold: the result may be pending_approval.',
  })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  post(@Param('id') id: string) {
    return this.entries.post(id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Approve a pending entry (it is posted)' })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  approve(@Param('id') id: string) {
    return this.entries.approve(id);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Reject a pending entry' })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  reject(@Param('id') id: string, @Body() body: RejectJournalEntryDto) {
    return this.entries.reject(id, body.rejection_reason);
  }

  @Post(':id/void')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Void a draft or pending entry' })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  void(@Param('id') id: string) {
    return this.entries.void(id);
  }

  @Post(':id/reverse')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Reverse a posted entry',
    description:
      'Posts an is_reversing entry with swapped lines and returns the original, now reversed, with reversed_by_id.',
  })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  reverse(@Param('id') id: string, @Body() body: ReverseJournalEntryDto) {
    return this.entries.reverse(id, body);
  }
}
