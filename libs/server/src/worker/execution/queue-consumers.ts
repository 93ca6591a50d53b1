import { Injectable, Logger, BeforeApplicationShutdown, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, Worker } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { ActionJobData } from '@app/scheduling';
import { ActionProcessor, JobOutcome } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { ClosingWorkers } from './closing-workers';
import { NotDueYetError } from './not-due-yet.error';
import { RunningAttempts } from './running-attempts';
import { TenantSlots } from './tenant-slots';
import { workerOptions } from './worker-options';

/** How long attempts told to stop at shutdown have to record their end before the process exits without them. */
const STOP_GRACE_MS = 5000;

/**
 * A job whose attempt failed ends failed in BullMQ's terms too, so the queue admin lists it under
 * failed with the reason, never retried by BullMQ (the row decides what runs next, as a job of its
 * own). Failed jobs are kept a day, at most 5,000 per queue (queue-defaults.ts).
 */
const FAILED_ATTEMPTS: Partial<Record<JobOutcome, string>> = {
  failed: 'Attempt failed and no retry is left: the action is FAILED (its history says why)',
  retry: 'Attempt failed: the action runs it again later, as a new job (its history says why)',
};

/**
 * One BullMQ worker per served action type, each with the type's rate limit. Workers are
 * created here rather than through `@Processor` because the served types are only known
 * at boot (`WORKER_ACTIONS`).
 */
@Injectable()
export class QueueConsumers implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueConsumers.name);
  private readonly workers: Worker<ActionJobData, JobOutcome>[] = [];
  private closing?: ClosingWorkers;

  constructor(
    private readonly processor: ActionProcessor,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly attempts: RunningAttempts,
    private readonly slots: TenantSlots,
    private readonly config: PunctualConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const type of this.fulfillments.servedTypes()) {
      const rateLimit = this.fulfillments.get(type)!.metadata.options.rateLimit;
      const worker = new Worker<ActionJobData, JobOutcome>(
        type,
        (job, token) => this.run(type, job, token),
        workerOptions(this.config, { actionType: type, rateLimit }),
      );
      worker.on('error', (error) => this.logger.error(`Queue ${type}: ${error.message}`));
      this.workers.push(worker);
    }
    this.logger.log(`Serving ${this.fulfillments.servedTypes().join(', ')} (concurrency ${this.config.worker.concurrency} each)`);
  }

  /** Whether every served type's consumer is taking jobs (not yet closing): the worker's readiness. */
  running(): boolean {
    return this.workers.length > 0 && this.workers.every((worker) => worker.isRunning() && !worker.closing);
  }

  /**
   * Runs a job under a slot of its tenant's concurrency limit, or parks it until one is free. One
   * that came before its action may run is delayed again rather than run early or dropped.
   */
  private async run(type: string, job: Job<ActionJobData>, token?: string): Promise<JobOutcome> {
    const slot = await this.slots.take(job);
    if (slot === 'full') {
      await this.slots.park(job, token);
      throw new DelayedError();
    }
    try {
      const outcome = await this.processor.process(type, job.data);
      const failed = FAILED_ATTEMPTS[outcome];
      if (failed) throw new UnrecoverableError(failed);
      return outcome;
    } catch (error) {
      if (!(error instanceof NotDueYetError)) throw error;
      await job.moveToDelayed(Date.now() + error.dueInMs, token);
      throw new DelayedError();
    } finally {
      await slot?.release();
    }
  }

  /** Tells the consumers to take no new jobs, once: from then on running jobs may finish. */
  private closeWorkers(): ClosingWorkers {
    return (this.closing ??= new ClosingWorkers(this.workers));
  }

  /** Takes no new jobs from the first moment of shutdown, before any module waits for its own work. */
  onModuleDestroy(): void {
    this.closeWorkers();
  }

  /**
   * Waits for running jobs, up to SHUTDOWN_TIMEOUT_MS, while the database is still open. Then it
   * stops the attempts still running through their signal, so that each records a failed attempt
   * before the process exits, rather than being killed mid-call by an orchestrator after it
   * finished. One that ignores its signal is left behind after STOP_GRACE_MS.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const timeoutMs = this.config.worker.shutdownTimeoutMs;
    const closing = this.closeWorkers();
    if (await closing.closedBy(timeoutMs)) return;
    const stopped = this.attempts.stopAll(new Error(`stopped by worker shutdown (still running after SHUTDOWN_TIMEOUT_MS, ${timeoutMs} ms)`));
    const closed = await closing.closedWithin(STOP_GRACE_MS);
    const left = this.attempts.abandonAll();
    const ended = stopped.filter((name) => !left.includes(name));
    if (ended.length > 0) {
      this.logger.warn(
        `Stopped ${ended.join(', ')}: still running after SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms). ` +
          'Each is recorded as a failed attempt and retried with the same idempotency key (FAILED when no retries are left)',
      );
    }
    if (left.length > 0) {
      this.logger.warn(
        `Exiting without ${left.join(', ')}: told to stop, still running ${STOP_GRACE_MS} ms later. Once the claim lapses ` +
          '(CLAIM_LEASE_MS), another worker counts the attempt as interrupted and runs it again with the same idempotency key',
      );
    } else if (!closed) {
      this.logger.warn(`Exiting with jobs still claiming or recording: their jobs run again once their locks lapse (CLAIM_LEASE_MS)`);
    }
  }
}
