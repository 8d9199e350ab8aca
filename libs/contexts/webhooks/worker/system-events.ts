import { Injectable } from '@nestjs/common';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { RequestContext } from '../../../platform/tenancy/request-context';

const SYSTEM_KEY_ID = '00000000-0000-0000-0000-000000000000';

/** Publishes the dispatcher's own events (disabled endpoint, exhausted delivery) as the owning entity and mode. */
@Injectable()
export class SystemEvents {
  constructor(private readonly publisher: EventPublisher) {}

  /** Must run inside TransactionHost.run(); the caller's transaction carries the outbox row. */
  publish(scope: { entityId: string; livemode: boolean }, type: string, object: unknown): Promise<string> {
    return RequestContext.runAs(
      {
        entityId: scope.entityId,
        entityCode: '',
        livemode: scope.livemode,
        apiKeyId: SYSTEM_KEY_ID,
        scopes: new Set(),
      },
      () => this.publisher.publish(type, object),
      'webhook-dispatcher',
    );
  }
}
