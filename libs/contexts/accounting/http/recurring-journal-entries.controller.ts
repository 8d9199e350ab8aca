import { Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { Route } from '#platform/http/route';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: 'recurring',
  scope: 'accounting',
  model: RecurringJournalEntryResponse,
  create: [
    CreateRecurringJournalEntryDto,
    'Create a recurring journal entry template',
    { description: 'Lines must balance and use postable accounts.' },
  ],
  list: [RecurringListQuery, 'List recurring journal entry templates'],
  retrieve: ['Retrieve a recurring journal entry template'],
  update: [UpdateRecurringJournalEntryDto, 'Update a recurring journal entry template'],
  delete: ['Delete a recurring journal entry template', { description: 'Entries it already posted stay.' }],
})
export class RecurringJournalEntriesController {
  constructor(private readonly recurring: RecurringJournalEntriesService) {}

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
