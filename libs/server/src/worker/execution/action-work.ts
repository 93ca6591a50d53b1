import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionJobData } from '@app/scheduling';
import { ActionProcessor, JobOutcome } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';
import { TenantConcurrency } from './tenant-concurrency';
import { workerOptions } from './worker-options';

/** Failed jobs are kept a day, at most 5,000 per queue (queue-defaults.ts). */
const FAILED_ATTEMPTS: Partial<Record<JobOutcome, string>> = {
  failed: 'Attempt failed and no retry is left: the action is FAILED (its history says why)',
  retry: 'Attempt failed: the action runs it again later, as a new job (its history says why)',
};

/**
 * The queue of each action type this worker serves, consumed with the type's rate limit under its
 * tenants' concurrency limits. Served from bootstrap on, since the served types are known only then
 * (`WORKER_ACTIONS`).
 */
@Injectable()
export class ActionWork implements OnApplicationBootstrap {
  private readonly logger = new Logger(ActionWork.name);

  constructor(
    private readonly processor: ActionProcessor,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly tenants: TenantConcurrency,
    private readonly consumers: QueueConsumers,
    private readonly config: PunctualConfig,
  ) {}

  onApplicationBootstrap(): void {
    const types = this.fulfillments.servedTypes();
    for (const type of types) {
      const rateLimit = this.fulfillments.get(type)!.metadata.options.rateLimit;
      this.consumers.serve<ActionJobData>({
        queue: type,
        options: workerOptions(this.config, { actionType: type, rateLimit }),
        failedAttempts: FAILED_ATTEMPTS,
        slotGroupOf: (job) => this.tenants.slotGroupOf(job.data.tenantId),
        run: (job) => this.processor.process(type, job.data),
      });
    }
    this.logger.log(`Serving ${types.join(', ')} (concurrency ${this.config.worker.concurrency} each)`);
  }
}
