import { Injectable, Logger, BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job, Worker } from 'bullmq';
import { PunctualConfig, redisOptionsFromUrl } from '@app/config';
import { bullmqTelemetry } from '@app/observability';
import { ActionJobData } from '@app/scheduling';
import { ActionProcessor, JobOutcome } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { closeWorkers } from './close-workers';
import { NotDueYetError } from './not-due-yet.error';

/**
 * One BullMQ worker per served action type, each with the type's rate limit. Workers are
 * created here rather than through `@Processor` because the served types are only known
 * at boot (`WORKER_ACTIONS`).
 */
@Injectable()
export class QueueConsumers implements BeforeApplicationShutdown, OnApplicationBootstrap {
  private readonly logger = new Logger(QueueConsumers.name);
  private readonly workers: Worker<ActionJobData, JobOutcome>[] = [];

  constructor(
    private readonly processor: ActionProcessor,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly config: PunctualConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const type of this.fulfillments.servedTypes()) {
      const limiter = this.config.worker.rateLimits.get(type) ?? this.fulfillments.get(type)!.metadata.options.rateLimit;
      const worker = new Worker<ActionJobData, JobOutcome>(type, (job, token) => this.run(job, token), {
        connection: { ...redisOptionsFromUrl(this.config.redis.url), maxRetriesPerRequest: null },
        prefix: this.config.redis.queuePrefix,
        concurrency: this.config.worker.concurrency,
        limiter: limiter ? { max: limiter.max, duration: limiter.durationMs } : undefined,
        // A dead worker's job is re-delivered once its lock lapses; the claim then takes it over.
        lockDuration: this.config.scheduling.claimLeaseMs,
        stalledInterval: this.config.scheduling.claimLeaseMs,
        telemetry: bullmqTelemetry(),
      });
      worker.on('error', (error) => this.logger.error(`Queue ${type}: ${error.message}`));
      this.workers.push(worker);
    }
    this.logger.log(`Serving ${this.fulfillments.servedTypes().join(', ')} (concurrency ${this.config.worker.concurrency} each)`);
  }

  /** Whether every served type's consumer is taking jobs (not yet closing): the worker's readiness. */
  running(): boolean {
    return this.workers.length > 0 && this.workers.every((worker) => worker.isRunning() && !worker.closing);
  }

  /** Runs a job; one that came before its action may run is delayed again rather than run early or dropped. */
  private async run(job: Job<ActionJobData>, token?: string): Promise<JobOutcome> {
    try {
      return await this.processor.process(job.data);
    } catch (error) {
      if (!(error instanceof NotDueYetError)) throw error;
      await job.moveToDelayed(Date.now() + error.dueInMs, token);
      throw new DelayedError();
    }
  }

  /** Takes no new jobs and waits for running ones, up to SHUTDOWN_TIMEOUT_MS, while the database is still open. */
  beforeApplicationShutdown(): Promise<void> {
    return closeWorkers(this.workers, this.config.worker.shutdownTimeoutMs, this.logger, 'jobs');
  }
}
