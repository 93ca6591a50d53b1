import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionPromoter } from '@app/scheduling';

/** Runs the promoter every PROMOTE_INTERVAL_MS in this worker; ticks never overlap. */
@Injectable()
export class PromotionLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PromotionLoop.name);
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly promoter: ActionPromoter,
    private readonly config: PunctualConfig,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running = this.promoter
        .tick()
        .catch((error: Error) => this.logger.warn(`Promotion tick failed, retrying next tick: ${error.message}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.config.scheduling.promoteIntervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
