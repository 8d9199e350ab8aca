import { DeliveryQueue, deliveryJobConcurrency, deliverySlots } from './delivery-queue';

const due = (n: number, attempt = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: `d${String(i).padStart(3, '0')}`, attempt }));

describe('delivery jobs', () => {
  it('puts deliveries due now in batch jobs of the batch size, in the order given, ids only', () => {
    const jobs = DeliveryQueue.jobs(due(45), 20);
    expect(jobs.map((j) => j.name)).toEqual(['deliver-batch', 'deliver-batch', 'deliver-batch']);
    expect(jobs.map((j) => (j.data as { deliveryIds: string[] }).deliveryIds.length)).toEqual([20, 20, 5]);
    expect(jobs.flatMap((j) => (j.data as { deliveryIds: string[] }).deliveryIds)).toEqual(
      due(45).map((d) => d.id),
    );
    expect(jobs[0].opts.jobId).toBe('d000-1-d019-1-20');
    expect(jobs.every((j) => j.opts.delay === undefined)).toBe(true);
    expect(JSON.stringify(jobs.map((j) => j.data))).not.toMatch(/secret|whsec/);
  });

  it('names the attempts in the job id, so the same attempts enqueued twice make one job', () => {
    expect(DeliveryQueue.jobs(due(30), 20).map((j) => j.opts.jobId)).toEqual(
      DeliveryQueue.jobs(due(30), 20).map((j) => j.opts.jobId),
    );
    expect(DeliveryQueue.jobs(due(30, 2), 20)[0].opts.jobId).not.toBe(
      DeliveryQueue.jobs(due(30, 1), 20)[0].opts.jobId,
    );
  });

  it('keeps a delayed attempt (a retry) and a lone delivery in single jobs named by the attempt', () => {
    const jobs = DeliveryQueue.jobs(
      [
        { id: 'a', attempt: 2, delayMs: 60_000 },
        { id: 'b', attempt: 1 },
        { id: 'c', attempt: 3, delayMs: 0 },
      ],
      20,
    );
    expect(jobs).toEqual([
      expect.objectContaining({
        name: 'deliver',
        data: { deliveryId: 'a' },
        opts: expect.objectContaining({ jobId: 'a-2', delay: 60_000 }),
      }),
      expect.objectContaining({
        name: 'deliver-batch',
        data: { deliveryIds: ['b', 'c'] },
        opts: expect.objectContaining({ jobId: 'b-1-c-3-2' }),
      }),
    ]);
    expect(DeliveryQueue.jobs([{ id: 'b', attempt: 4 }], 20)).toEqual([
      expect.objectContaining({
        name: 'deliver',
        data: { deliveryId: 'b' },
        opts: expect.objectContaining({ jobId: 'b-4' }),
      }),
    ]);
    expect(DeliveryQueue.jobs([], 20)).toEqual([]);
  });
});

describe('delivery concurrency', () => {
  it('runs enough batch jobs at once for the requests in flight, in whole batches', () => {
    expect([200, 120, 50, 20, 1].map(deliveryJobConcurrency)).toEqual([4, 3, 1, 1, 1]);
    expect([200, 120, 4].map(deliverySlots)).toEqual([200, 150, 50]);
  });
});
