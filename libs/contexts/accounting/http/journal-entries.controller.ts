import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: JournalEntriesService,
  scope: 'accounting',
  model: JournalEntryResponse,
  create: [
    CreateJournalEntryDto,
    'Create a journal entry',
    {
      description:
        'status draft or posted (default); posting applies the approval threshold, so the result may be pending_approval.',
      headers: ['idempotency-key'],
    },
  ],
  list: [
    JournalEntryListQuery,
    'List journal entries',
    { description: 'Newest first, without lines; filters batch_id, status, source_type, period_id.' },
  ],
  retrieve: ['Retrieve a journal entry with its lines'],
  update: [
    UpdateJournalEntryDto,
    'Update a draft journal entry',
    { description: '409 invalid_state unless the entry is a draft.' },
  ],
  delete: ['Delete a draft journal entry', { description: '409 invalid_state unless the entry is a draft.' }],
  actions: {
    post: [
      'Post a draft',
      { description: 'Applies the approval threshold: the result may be pending_approval.' },
    ],
    approve: ['Approve a pending entry (it is posted)'],
    reject: ['Reject a pending entry', { input: RejectJournalEntryDto }],
    void: ['Void a draft or pending entry'],
    reverse: [
      'Reverse a posted entry',
      {
        input: ReverseJournalEntryDto,
        description:
          'Posts an is_reversing entry with swapped lines and returns the original, now reversed, with reversed_by_id.',
      },
    ],
  },
})
export class JournalEntriesController {}
