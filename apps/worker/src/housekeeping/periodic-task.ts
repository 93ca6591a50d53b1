import { Logger } from '@nestjs/common';

/**
 * How long stopping waits for a run in progress. A run stuck on a store that went away (a Redis
 * command waiting for a reconnect) must not keep a stopping process alive; it fails by itself
 * once the connections close.
 */
export const STOP_WAIT_MS = 3000;

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

  /** Stops scheduling and waits for a run in progress, up to STOP_WAIT_MS. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const gaveUp = new Promise<'gave up'>((resolve) => setTimeout(resolve, STOP_WAIT_MS, 'gave up').unref());
    if ((await Promise.race([this.running, gaveUp])) === 'gave up') {
      this.logger.warn(`${this.name} was still running ${STOP_WAIT_MS} ms after the stop; stopping without it`);
    }
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
