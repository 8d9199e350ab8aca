import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_CATALOG, isKnownEventType } from '../../../platform/events/event-catalog';
import { OutboxEventRecord } from '../../../platform/events/outbox-event.entity';
import { notFound } from '../../../platform/errors/domain-error';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope, paginate } from '../../../platform/http/list/paginate';
import { isUuid } from '../../../platform/persistence/ids';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { WebhooksError } from '../domain/webhooks-error';
import { EventEnvelope, toEventEnvelope } from './webhook.presenter';

export interface EventListQuery extends ListQueryDto {
  type?: string;
  created_after?: string;
  created_before?: string;
}

/** The events API: the outbox rows of the caller's entity and mode, as envelopes (kept 30 days). */
@Injectable()
export class EventsService {
  constructor(private readonly dataSource: DataSource) {}

  private scoped() {
    const { entityId, livemode } = RequestContext.caller();
    return this.dataSource
      .getRepository(OutboxEventRecord)
      .createQueryBuilder('e')
      .where('e.entity_id = :entityId AND e.livemode = :livemode', { entityId, livemode });
  }

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
    const qb = this.scoped();
    if (query.type) qb.andWhere('e.type = :type', { type: query.type });
    if (query.created_after) qb.andWhere('e.created_at > :after', { after: new Date(query.created_after) });
    if (query.created_before)
      qb.andWhere('e.created_at < :before', { before: new Date(query.created_before) });
    const page = await paginate(qb, query, { url });
    return listEnvelope(page.rows.map(toEventEnvelope), page, url);
  }

  async retrieve(id: string): Promise<EventEnvelope> {
    const found = isUuid(id) ? await this.scoped().andWhere('e.id = :id', { id }).getOne() : null;
    if (!found) throw notFound('event', id);
    return toEventEnvelope(found);
  }
}
