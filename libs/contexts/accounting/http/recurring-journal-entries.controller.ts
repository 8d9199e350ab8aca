import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
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
  service: RecurringJournalEntriesService,
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
  actions: {
    run: [
      'Run a recurring template now',
      {
        description:
          'Posts a RECURRING_JE entry dated today regardless of next_run_date, then advances next_run_date. Returns the entry with lines.',
        returns: JournalEntryResponse,
        decorators: [ApiResource('journal_entry')],
      },
    ],
  },
})
export class RecurringJournalEntriesController {}
