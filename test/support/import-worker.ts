import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DispatcherModule } from '../../apps/webhook-dispatcher/dispatcher.module';
import { TestApp } from './test-app';

/** Boots the dispatcher app (the bulk import worker among its processors) in-process, on a test app's database and queues. */
export async function startWorker(app: TestApp): Promise<INestApplicationContext> {
  const worker = await NestFactory.createApplicationContext(DispatcherModule.forRoot(app.config), {
    logger: false,
  });
  await worker.init();
  return worker;
}

/** Polls `fn` until it returns a truthy value. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
