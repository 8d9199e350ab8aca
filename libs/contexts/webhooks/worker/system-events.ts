import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { RequestContext } from '#platform/tenancy/request-context';

/** Publishes the dispatcher's own events (disabled endpoint, exhausted delivery) as the owning entity and mode. */
@Injectable()
export class SystemEvents {
  constructor(private readonly publisher: EventPublisher) {}

  /** Must run inside TransactionHost.run(); the caller's transaction carries the outbox row. */
  publish(scope: { entityId: string; livemode: boolean }, type: string, object: unknown): Promise<string> {
    return RequestContext.runAsSystem(
      { entityId: scope.entityId, livemode: scope.livemode },
      () => this.publisher.publish(type, object),
      'webhook-dispatcher',
    );
  }
}
