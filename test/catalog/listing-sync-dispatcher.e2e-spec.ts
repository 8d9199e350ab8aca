import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DispatcherModule } from '../../apps/webhook-dispatcher/dispatcher.module';
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
    const { storefront_listing_id: id } = app.seed.fixtures as Record<string, string>;
    await live.post(`/v1/channel_listings/${id}/sync`).expect(202);
    await new Promise((r) => setTimeout(r, 500));
    // Nothing in the API app consumes the catalog queue.
    expect((await live.get(`/v1/channel_listings/${id}`).expect(200)).body).toMatchObject({
      sync_status: 'queued',
      sync_attempts: 0,
    });

    dispatcher = await NestFactory.createApplicationContext(DispatcherModule.forRoot(app.config), {
      logger: false,
    });
    const deadline = Date.now() + 20_000;
    let listing: { sync_status: string; sync_attempts: number } | undefined;
    while (Date.now() < deadline) {
      listing = (await live.get(`/v1/channel_listings/${id}`).expect(200)).body;
      if (listing!.sync_attempts > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(listing).toMatchObject({ sync_status: 'synced', sync_attempts: 1 });
  });
});
