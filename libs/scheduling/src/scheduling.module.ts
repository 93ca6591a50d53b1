import { DynamicModule, Module } from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { ActionTypeDefinition } from '@punctual/sdk';
import { bullmqTelemetry } from '@app/observability';
import { ActionPromoter } from './action-promoter';
import { ActionQueues, QUEUES_BY_TYPE } from './action-queues';
import { ActionScheduler } from './action-scheduler';
import { queueConnection } from './queue-connection';
import { Clock } from '@app/domain';

/** Finished jobs stay briefly for the admin UI; Postgres keeps the real history. */
const KEEP_FINISHED_JOBS = { removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 24 * 3600, count: 5000 } };

/**
 * BullMQ 6 hands every error of a queue's Redis connection to the queue and prints it to stderr
 * when nothing listens. A producer meets an outage as a failed add (the reconciler queues the
 * action later), and the workers and /health/ready report the outage itself, so the queues listen
 * and say nothing, as they did before.
 */
const QUIET_QUEUES = Symbol('QUIET_QUEUES');

/**
 * One BullMQ queue per action type, so each type has its own concurrency and rate
 * limit and a worker can serve a subset of types.
 */
@Module({})
export class SchedulingModule {
  static forRoot(types: readonly ActionTypeDefinition[]): DynamicModule {
    return {
      module: SchedulingModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [PunctualConfig],
          useFactory: (config: PunctualConfig) => ({
            // Producers fail fast when Redis is down; the reconciler queues the action later.
            connection: queueConnection(config.redis, { enableOfflineQueue: false }),
            // Fulfillment failures never reach BullMQ (they are recorded in Postgres); a job fails only
            // when Postgres or Redis is unreachable, and is tried again as the outage passes.
            defaultJobOptions: { attempts: 6, backoff: { type: 'exponential', delay: 500 }, ...KEEP_FINISHED_JOBS },
            telemetry: bullmqTelemetry(),
          }),
        }),
        BullModule.registerQueueAsync(
          ...types.map((t) => ({
            name: t.type,
            inject: [PunctualConfig],
            useFactory: (config: PunctualConfig) => ({ prefix: queuePrefixOf(config.redis.queuePrefix, t.type) }),
          })),
        ),
      ],
      providers: [
        {
          provide: QUEUES_BY_TYPE,
          inject: types.map((t) => getQueueToken(t.type)),
          useFactory: (...queues: Queue[]) => new Map(types.map((t, i) => [t.type, queues[i]])),
        },
        {
          provide: QUIET_QUEUES,
          inject: types.map((t) => getQueueToken(t.type)),
          useFactory: (...queues: Queue[]) => queues.map((queue) => queue.on('error', () => undefined)),
        },
        ActionQueues,
        ActionScheduler,
        ActionPromoter,
        Clock,
      ],
      exports: [ActionQueues, ActionScheduler, ActionPromoter, Clock, BullModule],
    };
  }
}
