import 'reflect-metadata';
import type { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { EVERY_HOUR, JobSchedules } from './job-schedules';

describe('JobSchedules', () => {
  it('upserts one scheduler per job, named after it, in the order given', async () => {
    const Schedules = JobSchedules('maintenance', (config) => ({
      'purge-idempotency-keys': EVERY_HOUR,
      'purge-rate-limit-windows': config.SHIPMENT_NOTIFICATION_SWEEP_MS,
    }));
    const upsertJobScheduler = jest.fn(async () => ({}));
    const config = { SHIPMENT_NOTIFICATION_SWEEP_MS: 5000 } as AppConfig;
    const Ctor = Schedules as unknown as new (
      queue: Queue,
      config: AppConfig,
    ) => {
      onApplicationBootstrap(): Promise<void>;
    };
    await new Ctor({ upsertJobScheduler } as unknown as Queue, config).onApplicationBootstrap();
    expect(upsertJobScheduler.mock.calls).toEqual([
      ['purge-idempotency-keys', { every: EVERY_HOUR }, { name: 'purge-idempotency-keys' }],
      ['purge-rate-limit-windows', { every: 5000 }, { name: 'purge-rate-limit-windows' }],
    ]);
    expect(Schedules.name).toBe('JobSchedules(maintenance)');
  });

  it('removes the scheduler of a job whose period is 0 instead of repeating it', async () => {
    const Schedules = JobSchedules('maintenance', () => ({ 'purge-idempotency-keys': 0 }));
    const upsertJobScheduler = jest.fn(async () => ({}));
    const removeJobScheduler = jest.fn(async () => true);
    const Ctor = Schedules as unknown as new (
      queue: Queue,
      config: AppConfig,
    ) => {
      onApplicationBootstrap(): Promise<void>;
    };
    await new Ctor(
      { upsertJobScheduler, removeJobScheduler } as unknown as Queue,
      {} as AppConfig,
    ).onApplicationBootstrap();
    expect(upsertJobScheduler).not.toHaveBeenCalled();
    expect(removeJobScheduler.mock.calls).toEqual([['purge-idempotency-keys']]);
  });
});
