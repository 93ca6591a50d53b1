import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { PunctualConfig } from '@app/config';
import { WorkersRepository } from '@app/database';
import { PeriodicTask } from '@app/runtime';
import { ActionTypeRegistry } from '@app/action-types';
import { FulfillmentRegistry } from './fulfillment.registry';
import { RunningAttempts } from './running-attempts';

/** How often a worker renews its declaration. */
export const HEARTBEAT_MS = 5000;
/**
 * How long a declaration holds without a heartbeat: four missed beats. A worker that crashed stops
 * counting as live within 20 s, far inside UNKNOWN_TYPE_GRACE_MS, while a worker slowed by a busy
 * machine, a garbage collection or a Postgres failover of a few seconds does not flicker out.
 */
export const LIVENESS_MS = 4 * HEARTBEAT_MS;

/**
 * Declares this worker in Postgres while it runs (WorkersRepository): the types it knows and
 * serves, its concurrency and running attempts. Its first declaration is written before any
 * periodic task (the promoter among them) starts, so no tick of this process judges a type while
 * this worker, which knows it, is missing; a graceful shutdown ends it at once.
 */
@Injectable()
export class WorkerPresence extends PeriodicTask implements OnModuleInit {
  readonly id = randomUUID();
  /** The stop's write, sent at the first moment of shutdown. */
  private stopWritten: Promise<void> = Promise.resolve();

  constructor(
    private readonly workers: WorkersRepository,
    private readonly types: ActionTypeRegistry,
    private readonly fulfillments: FulfillmentRegistry,
    private readonly attempts: RunningAttempts,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Worker heartbeat', intervalMs: HEARTBEAT_MS, firstDelayMs: HEARTBEAT_MS });
  }

  async onModuleInit(): Promise<void> {
    await this.run();
  }

  protected run(): Promise<void> {
    return this.workers.beat(
      {
        id: this.id,
        host: hostname(),
        pid: process.pid,
        knows: this.types.types(),
        serves: this.fulfillments.servedTypes(),
        concurrency: this.config.worker.concurrency,
        running: this.attempts.count,
      },
      LIVENESS_MS,
    );
  }

  /** From the first moment of shutdown the worker takes no new jobs: it stops being live for the promoter at once. */
  onModuleDestroy(): void {
    super.onModuleDestroy();
    this.stopWritten = this.workers.stop(this.id).catch((error: Error) => {
      this.logger.warn(`Could not record this worker's stop; it stops being live ${LIVENESS_MS} ms after its last heartbeat: ${error.message}`);
    });
  }

  /** Waits for the stop's write while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.stopWritten, super.beforeApplicationShutdown()]);
  }
}
