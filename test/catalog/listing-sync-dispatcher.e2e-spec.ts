import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** The API only queues listing syncs; the dispatcher app (a separate process in production) runs them. */
describe('channel listing sync through the dispatcher app', () => {
  let app: TestApp;
  let dispatcher: INestApplicationContext | undefined;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await dispatcher?.close();
    await app.close();
  });

  it('records the attempt once the dispatcher runs the queued job', async () => {
    const live = api(app, app.seed.entities.primary.keys.live);
    const queue = app.get<Queue>(getQueueToken(QUEUE_NAMES.catalog) as never);
    const { storefront_listing_id: id } = app.seed.fixtures as Record<string, string>;
    await live.post(`/v1/channel_listings/${id}/sync`).expect(202);
    // Nothing in the API app consumes the catalog queue: no worker listens on it, and the job waits.
    expect(await queue.getWorkersCount()).toBe(0);
    expect(await queue.getJobCounts('waiting', 'active', 'completed')).toEqual({
      waiting: 1,
      active: 0,
      completed: 0,
    });
    expect((await live.get(`/v1/channel_listings/${id}`).expect(200)).body).toMatchObject({
      sync_status: 'queued',
      sync_attempts: 0,
    });

    dispatcher = await startDispatcher(app);
    // The probe above sees a worker once there is one.
    await waitFor(async () => (await queue.getWorkersCount()) > 0, {
      label: "the dispatcher's catalog worker",
    });
    const listing = await waitFor(async () => {
      const body = (await live.get(`/v1/channel_listings/${id}`).expect(200)).body;
      return body.sync_attempts > 0 && body;
    });
    expect(listing).toMatchObject({ sync_status: 'synced', sync_attempts: 1, last_sync_error: null });
  });
});
