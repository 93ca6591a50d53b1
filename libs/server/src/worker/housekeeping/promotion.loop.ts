import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PunctualConfig } from '@app/config';
import { ScheduleRepository } from '@app/database';
import { LeaderTask } from '@app/runtime';
import { ActionPromoter, PromotionLead, PromotionReport } from '@app/scheduling';

/** Runs the promoter every PROMOTE_INTERVAL_MS on the one worker that gets the promoter lock for the tick. */
@Injectable()
export class PromotionLoop extends LeaderTask<EntityManager, PromotionLead> {
  constructor(
    private readonly promoter: ActionPromoter,
    schedule: ScheduleRepository,
    config: PunctualConfig,
  ) {
    super({ name: 'Promotion', intervalMs: config.scheduling.promoteIntervalMs }, schedule.lock);
  }

  /** One tick: the report, or null on a worker that does not lead this time. */
  async tick(): Promise<PromotionReport | null> {
    const found = await this.tryLead();
    return found && this.promoter.settle(found);
  }

  protected lead(manager: EntityManager): Promise<PromotionLead> {
    return this.promoter.lead(manager);
  }

  protected run(): Promise<PromotionReport | null> {
    return this.tick();
  }
}
