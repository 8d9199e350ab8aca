import { Worker, type WorkerListener } from 'bullmq';
import { eventCoverage } from '../events/event-coverage';
import { QUEUE_NAMES } from './queues';

const PRODUCT_QUEUES: ReadonlySet<string> = new Set(Object.values(QUEUE_NAMES));

type WorkerArgs = ConstructorParameters<typeof Worker>;

/**
 * The BullMQ worker of the app's processors while a test run records event coverage
 * (events/event-coverage.ts): a job of a product queue runs as that job, so the events it commits
 * count as the product's. Production never uses it (QueueModule installs it only when recording).
 */
export class JobOriginWorker extends Worker {
  constructor(...args: WorkerArgs) {
    const [name, processor, ...rest] = args;
    const wrapped: WorkerArgs[1] =
      typeof processor === 'function' && PRODUCT_QUEUES.has(name)
        ? (job, token, signal) =>
            eventCoverage.runJob(`job ${name}/${job.name}`, () => processor(job, token, signal))
        : processor;
    super(...([name, wrapped, ...rest] as unknown as WorkerArgs));
    this.product = PRODUCT_QUEUES.has(name);
  }

  private readonly product: boolean;

  /**
   * A job's `completed` and `failed` listeners (a processor's @OnWorkerEvent handlers, such as
   * the import worker marking an import failed for good) run as that job too.
   */
  override emit<U extends keyof WorkerListener>(event: U, ...args: Parameters<WorkerListener[U]>): boolean {
    const job = args[0] as { name?: unknown } | undefined;
    if (this.product && (event === 'completed' || event === 'failed') && typeof job?.name === 'string')
      return eventCoverage.runJob(`job ${this.name}/${job.name}`, () => super.emit(event, ...args));
    return super.emit(event, ...args);
  }
}
