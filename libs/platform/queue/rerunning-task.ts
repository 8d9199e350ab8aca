/**
 * Background work run one round at a time in a process: start() begins a round, or, while one
 * runs, asks for one more after it (however many starts came meanwhile), so what changed during
 * a round is seen by the next. A round that fails is handed to `onError`; the next start runs
 * again. stop() refuses new rounds and waits for the running one.
 */
export class RerunningTask {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts a round, or asks the running one for one more. */
  start(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.start();
        }
      });
  }

  /** Resolves once no round runs (nor is asked for by a start made before this call). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Refuses new rounds and waits for the running one. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.again = false;
    await this.running;
  }
}
