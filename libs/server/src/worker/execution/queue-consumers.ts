import { Inject, Injectable, Logger, BeforeApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { ClosingWorkers } from './closing-workers';
import { ConcurrencySlots } from './concurrency-slots';
import { CONSUMED_QUEUES, ConsumedQueuesPort, QueueConsumer } from './consumed-queues.port';
import { NotDueYetError } from './not-due-yet.error';
import type { ConsumedJob, QueuedWork } from './queued-work';
import { RunningAttempts } from './running-attempts';

/** How long attempts told to stop at shutdown have to record their end before the process exits without them. */
const STOP_GRACE_MS = 5000;

/**
 * One BullMQ worker per queue of durable work this process serves (`serve`): each served action
 * type's, and the webhook deliveries'. Every job runs the same way whatever its kind: under a slot
 * of its group's limit or parked until one is free, delayed again when it came early, failed in
 * BullMQ's terms when its attempt failed, and stopped the same way when the worker stops.
 */
@Injectable()
export class QueueConsumers implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueConsumers.name);
  private readonly workers: QueueConsumer[] = [];
  private closing?: ClosingWorkers;

  constructor(
    private readonly attempts: RunningAttempts,
    private readonly slots: ConcurrencySlots,
    @Inject(CONSUMED_QUEUES) private readonly queues: ConsumedQueuesPort,
    private readonly config: PunctualConfig,
  ) {}

  /** Starts consuming `work`'s queue. */
  serve<Data>(work: QueuedWork<Data>): void {
    const worker = this.queues.consume(work, {
      process: (job, token) => this.run(work, job, token),
      error: (error) => this.logger.error(`Queue ${work.queue}: ${error.message}`),
      // An attempt's failure is recorded in Postgres; this is Postgres or Redis failing, retried by the queue.
      failed: (job, error) => {
        if (!(error instanceof UnrecoverableError))
          this.logger.warn(`Job ${job?.id ?? '?'} of queue ${work.queue} failed, to be retried: ${error.message}`);
      },
    });
    this.workers.push(worker);
  }

  /** Whether every queue's consumer is taking jobs (not yet closing): the worker's readiness. */
  running(): boolean {
    return this.workers.length > 0 && this.workers.every((worker) => worker.running());
  }

  /** Runs a job under a slot of its group's limit, or parks it until one is free; one that came early is delayed again rather than run early or dropped. */
  private async run<Data>(work: QueuedWork<Data>, job: ConsumedJob<Data>, token: string | undefined): Promise<string> {
    const group = await work.slotGroupOf(job);
    const slot = group && (await this.slots.take(job, group));
    if (slot === 'full') {
      await this.slots.park(job, group!, token);
      throw new DelayedError();
    }
    try {
      const outcome = await work.run(job);
      const failed = work.failedAttempts[outcome];
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
          'Each is recorded as a failed attempt and tried again with the same idempotency key or webhook-id (FAILED when no retries are left)',
      );
    }
    if (left.length > 0) {
      this.logger.warn(
        `Exiting without ${left.join(', ')}: told to stop, still running ${STOP_GRACE_MS} ms later. Once the claim lapses ` +
          '(CLAIM_LEASE_MS), another worker counts the attempt as interrupted and runs it again with the same idempotency key or webhook-id',
      );
    } else if (!closed) {
      this.logger.warn(`Exiting with jobs still claiming or recording: their jobs run again once their locks lapse (CLAIM_LEASE_MS)`);
    }
  }
}
