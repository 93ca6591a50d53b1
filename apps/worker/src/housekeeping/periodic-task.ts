import { Logger } from '@nestjs/common';

/**
 * Runs `work` every `intervalMs` (measured from the end of the previous run, so runs never
 * overlap) until stopped. A failing run is logged and retried on the next interval.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(firstDelayMs = 0): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  /** Stops scheduling and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.work()
        .catch((error: Error) => this.logger.warn(`${this.name} failed, retrying in ${this.intervalMs} ms: ${error.message}`))
        .finally(() => {
          if (!this.stopped) this.schedule(this.intervalMs);
        });
    }, delayMs);
  }
}
