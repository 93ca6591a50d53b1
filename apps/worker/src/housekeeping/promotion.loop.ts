import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionPromoter } from '@app/scheduling';
import { PeriodicTask } from './periodic-task';

/** Runs the promoter every PROMOTE_INTERVAL_MS in this worker. */
@Injectable()
export class PromotionLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(promoter: ActionPromoter, config: PunctualConfig) {
    this.task = new PeriodicTask('Promotion', config.scheduling.promoteIntervalMs, () => promoter.tick(), new Logger(PromotionLoop.name));
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }
}
