import { Body, Controller, Headers, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { JournalEntriesService } from '../application/journal-entries.service';
import {
  CreateJournalEntryDto,
  JournalEntryListQuery,
  JournalEntryResponse,
  RejectJournalEntryDto,
  ReverseJournalEntryDto,
  UpdateJournalEntryDto,
} from './journal-entry.dto';

@ApiTags('Journal entries')
@ApiResource('journal_entry')
@Controller('journal-entries')
export class JournalEntriesController {
  constructor(private readonly entries: JournalEntriesService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Create a journal entry',
    description:
      'status draft or posted (default); posting applies the approval threshold, so the result may be pending_approval.',
    returns: JournalEntryResponse,
  })
  create(@Body() body: CreateJournalEntryDto, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.entries.create(body, idempotencyKey);
  }

  @Route('GET', '', {
    scopes: 'accounting:read',
    summary: 'List journal entries',
    description: 'Newest first, without lines; filters batch_id, status, source_type, period_id.',
  })
  list(@Query() query: JournalEntryListQuery, @Req() req: Request) {
    return this.entries.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve a journal entry with its lines',
    returns: JournalEntryResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.entries.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'accounting:write',
    summary: 'Update a draft journal entry',
    description: '409 invalid_state unless the entry is a draft.',
    returns: JournalEntryResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateJournalEntryDto) {
    return this.entries.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'accounting:write',
    summary: 'Delete a draft journal entry',
    description: '409 invalid_state unless the entry is a draft.',
  })
  delete(@Param('id') id: string) {
    return this.entries.delete(id);
  }

  @Route('POST', ':id/post', {
    scopes: 'accounting:write',
    summary: 'Post a draft',
    description: 'Applies the approval threshold: the result may be pending_approval.',
    code: 200,
    returns: JournalEntryResponse,
  })
  post(@Param('id') id: string) {
    return this.entries.post(id);
  }

  @Route('POST', ':id/approve', {
    scopes: 'accounting:write',
    summary: 'Approve a pending entry (it is posted)',
    code: 200,
    returns: JournalEntryResponse,
  })
  approve(@Param('id') id: string) {
    return this.entries.approve(id);
  }

  @Route('POST', ':id/reject', {
    scopes: 'accounting:write',
    summary: 'Reject a pending entry',
    code: 200,
    returns: JournalEntryResponse,
  })
  reject(@Param('id') id: string, @Body() body: RejectJournalEntryDto) {
    return this.entries.reject(id, body.rejection_reason);
  }

  @Route('POST', ':id/void', {
    scopes: 'accounting:write',
    summary: 'Void a draft or pending entry',
    code: 200,
    returns: JournalEntryResponse,
  })
  void(@Param('id') id: string) {
    return this.entries.void(id);
  }

  @Route('POST', ':id/reverse', {
    scopes: 'accounting:write',
    summary: 'Reverse a posted entry',
    description:
      'Posts an is_reversing entry with swapped lines and returns the original, now reversed, with reversed_by_id.',
    code: 200,
    returns: JournalEntryResponse,
  })
  reverse(@Param('id') id: string, @Body() body: ReverseJournalEntryDto) {
    return this.entries.reverse(id, body);
  }
}
