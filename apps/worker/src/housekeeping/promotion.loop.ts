import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { PeriodicTask } from '@app/database';
import { ActionPromoter } from '@app/scheduling';

/** Runs the promoter every PROMOTE_INTERVAL_MS in every worker; each tick leads through the promoter's lock. */
@Injectable()
export class PromotionLoop extends PeriodicTask {
  constructor(
    private readonly promoter: ActionPromoter,
    config: PunctualConfig,
  ) {
    super({ name: 'Promotion', intervalMs: config.scheduling.promoteIntervalMs });
  }

  protected run(): Promise<unknown> {
    return this.promoter.tick();
  }
}
