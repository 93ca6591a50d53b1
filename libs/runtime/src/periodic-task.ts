import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

/**
 * How long stopping waits for a run in progress. A run stuck on a store that went away (a Redis
 * command waiting for a reconnect) must not keep a stopping process alive; it fails by itself
 * once the connections close.
 */
export const STOP_WAIT_MS = 3000;

export interface PeriodicSettings {
  /** Names the task in its log lines. */
  name: string;
  /** From the end of one run to the start of the next, so that runs never overlap. */
  intervalMs: number;
  /** From the application's start to the first run: none unless given. */
  firstDelayMs?: number;
  /** Whether this process runs the task at all. */
  enabled?: boolean;
}

/**
 * Work that runs every `intervalMs` in this process, from the application's start until its
 * shutdown begins; a subclass declares the settings and the work. A failing run is logged and
 * retried on the next interval.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Whether the run in progress at the stop ended within STOP_WAIT_MS of it. */
  private endedInTime: Promise<boolean> = Promise.resolve(true);
  private ended = 0;

  protected constructor(private readonly settings: PeriodicSettings) {}

  /** One run of the work. */
  protected abstract run(): Promise<unknown>;

  /**
   * How many runs have ended, either way. A run that starts after a moment and ends has seen the
   * world as it was at that moment: what an operator's probe (or a spec) waits for before it
   * concludes that the task found nothing to do, rather than for a fixed time.
   */
  get runsEnded(): number {
    return this.ended;
  }

  /** Whether shutdown has begun: a run that ends after it should leave nothing behind. */
  protected get stopping(): boolean {
    return this.stopped;
  }

  onApplicationBootstrap(): void {
    if (this.settings.enabled ?? true) this.schedule(this.settings.firstDelayMs ?? 0);
  }

  /** Starts no run from the first moment of shutdown. */
  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const gaveUp = new Promise<false>((resolve) => setTimeout(resolve, STOP_WAIT_MS, false).unref());
    this.endedInTime = Promise.race([this.running.then(() => true), gaveUp]);
  }

  /** Waits for the run in progress at the stop, up to STOP_WAIT_MS after it. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!(await this.endedInTime)) {
      this.logger.warn(`${this.settings.name} was still running ${STOP_WAIT_MS} ms after the stop; stopping without it`);
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.run()
        .catch((error: Error) => this.logger.warn(`${this.settings.name} failed, retrying in ${this.settings.intervalMs} ms: ${error.message}`))
        .finally(() => {
          this.ended += 1;
          if (!this.stopped) this.schedule(this.settings.intervalMs);
        });
    }, delayMs);
  }
}
