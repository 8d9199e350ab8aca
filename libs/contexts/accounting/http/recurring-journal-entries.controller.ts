import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { RecurringJournalEntriesService } from '../application/recurring-journal-entries.service';
import { JournalEntryResponse } from './journal-entry.dto';
import {
  CreateRecurringJournalEntryDto,
  RecurringJournalEntryResponse,
  RecurringListQuery,
  UpdateRecurringJournalEntryDto,
} from './recurring-journal-entry.dto';

@ApiTags('Journal entries')
@Controller('recurring-journal-entries')
export class RecurringJournalEntriesController {
  constructor(private readonly recurring: RecurringJournalEntriesService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Create a recurring journal entry template',
    description: 'Lines must balance and use postable accounts.',
    returns: RecurringJournalEntryResponse,
  })
  create(@Body() body: CreateRecurringJournalEntryDto) {
    return this.recurring.create(body);
  }

  @Route('GET', '', { scopes: 'accounting:read', summary: 'List recurring journal entry templates' })
  list(@Query() query: RecurringListQuery, @Req() req: Request) {
    return this.recurring.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve a recurring journal entry template',
    returns: RecurringJournalEntryResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.recurring.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'accounting:write',
    summary: 'Update a recurring journal entry template',
    returns: RecurringJournalEntryResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateRecurringJournalEntryDto) {
    return this.recurring.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'accounting:write',
    summary: 'Delete a recurring journal entry template',
    description: 'Entries it already posted stay.',
  })
  delete(@Param('id') id: string) {
    return this.recurring.delete(id);
  }

  @Route('POST', ':id/run', {
    scopes: 'accounting:write',
    summary: 'Run a recurring template now',
    description:
      'Posts a RECURRING_JE entry dated today regardless of next_run_date, then advances next_run_date. Returns the entry with lines.',
    code: 200,
    returns: JournalEntryResponse,
  })
  @ApiResource('journal_entry')
  run(@Param('id') id: string) {
    return this.recurring.run(id);
  }
}
