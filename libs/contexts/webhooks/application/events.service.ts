import { Injectable } from '@nestjs/common';
import { EVENT_CATALOG, isKnownEventType } from '#platform/events/event-catalog';
import { OutboxReader } from '#platform/events/outbox-reader';
import { notFound } from '#platform/errors/domain-error';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { isUuid } from '#platform/persistence/ids';
import { WebhooksError } from '../domain/webhooks-error';
import { EventEnvelope, toEventEnvelope } from './event.presenter';

export interface EventListQuery extends ListQueryDto {
  type?: string;
  created_after?: string;
  created_before?: string;
}

/** The events API: the outbox rows of the caller's entity and mode, as envelopes (kept 30 days). */
@Injectable()
export class EventsService {
  constructor(private readonly outbox: OutboxReader) {}

  eventTypes(url: string) {
    return listEnvelope(
      EVENT_CATALOG.map((d) => ({ type: d.type, family: d.family, description: d.description })),
      { has_more: false },
      url,
    );
  }

  async list(query: EventListQuery, url: string) {
    if (query.type !== undefined && !isKnownEventType(query.type)) {
      throw new WebhooksError('parameter_invalid', {
        param: 'type',
        hint: `'${query.type}' is not an event type; see GET /entities/{entity_id}/event_types.`,
      });
    }
    const page = await this.outbox.page(
      {
        type: query.type || undefined,
        createdAfter: query.created_after ? new Date(query.created_after) : undefined,
        createdBefore: query.created_before ? new Date(query.created_before) : undefined,
      },
      query,
      url,
    );
    return listEnvelope(page.rows.map(toEventEnvelope), page, url);
  }

  async retrieve(id: string): Promise<EventEnvelope> {
    const found = isUuid(id) ? await this.outbox.findById(id) : null;
    if (!found) throw notFound('event', id);
    return toEventEnvelope(found);
  }
}
