import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { RecurringJournalEntriesService } from '../application/recurring-journal-entries.service';
import {
  CreateRecurringJournalEntryDto,
  JournalEntryResponse,
  RecurringJournalEntryResponse,
  RecurringListQuery,
  UpdateRecurringJournalEntryDto,
} from './accounting.dto';

@ApiTags('Journal entries')
@Controller('recurring-journal-entries')
export class RecurringJournalEntriesController {
  constructor(private readonly recurring: RecurringJournalEntriesService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Create a recurring journal entry template',
    description: 'Lines must balance and use postable accounts.',
  })
  @ApiResponse({ status: 201, type: RecurringJournalEntryResponse })
  create(@Body() body: CreateRecurringJournalEntryDto) {
    return this.recurring.create(body);
  }

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'List recurring journal entry templates' })
  list(@Query() query: RecurringListQuery, @Req() req: Request) {
    return this.recurring.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve a recurring journal entry template' })
  @ApiResponse({ status: 200, type: RecurringJournalEntryResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.recurring.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Update a recurring journal entry template' })
  @ApiResponse({ status: 200, type: RecurringJournalEntryResponse })
  update(@Param('id') id: string, @Body() body: UpdateRecurringJournalEntryDto) {
    return this.recurring.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Delete a recurring journal entry template',
    description: 'Entries it already posted stay.',
  })
  delete(@Param('id') id: string) {
    return this.recurring.delete(id);
  }

  @Post(':id/run')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiResource('journal_entry')
  @ApiOperation({
    summary: 'Run a recurring template now',
    description:
      'Posts a RECURRING_JE entry dated today regardless of next_run_date, then advances next_run_date. Returns the entry with lines.',
  })
  @ApiResponse({ status: 200, type: JournalEntryResponse })
  run(@Param('id') id: string) {
    return this.recurring.run(id);
  }
}
