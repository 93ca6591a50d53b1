import { DynamicModule, Module } from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { ActionTypeDefinition } from '@punctual/sdk';
import { ActionPromoter } from './action-promoter';
import { ActionQueues, QUEUES_BY_TYPE } from './action-queues';
import { ACTION_QUEUES } from './action-queues.port';
import { ActionScheduler } from './action-scheduler';
import { queueDefaults } from './queue-defaults';
import { Clock } from '@app/domain';

/**
 * BullMQ 6 hands every error of a queue's Redis connection to the queue and prints it to stderr
 * when nothing listens. A producer meets an outage as a failed add (the reconciler queues the
 * action later), and the workers and /health/ready report the outage itself, so the queues listen
 * and say nothing, as they did before.
 */
const QUIET_QUEUES = Symbol('QUIET_QUEUES');

/**
 * One BullMQ queue per action type, so each type has its own concurrency and rate
 * limit and a worker can serve a subset of types. The types this process knows have theirs
 * registered here; ActionQueues makes the queue of any other type on demand.
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
          useFactory: queueDefaults,
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
        { provide: ACTION_QUEUES, useExisting: ActionQueues },
        ActionScheduler,
        ActionPromoter,
        Clock,
      ],
      exports: [ActionQueues, ACTION_QUEUES, ActionScheduler, ActionPromoter, Clock, BullModule],
    };
  }
}
