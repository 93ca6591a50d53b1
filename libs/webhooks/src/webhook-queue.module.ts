import { Module } from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { DeliveryQueue } from './delivery-queue';
import { WEBHOOK_QUEUE } from './webhook-job';

/**
 * BullMQ 6 prints every error of a queue's Redis connection to stderr when nothing listens.
 * `DeliveryQueue` meets an outage as a failed add (the outbox keeps the delivery for a later run), and the
 * workers and /health/ready report the outage itself, so the queue listens and says nothing.
 */
const QUIET_QUEUE = Symbol('QUIET_WEBHOOK_QUEUE');

/**
 * The webhook queue, on the Redis connection of `BullModule.forRootAsync`, which SchedulingModule
 * registers, and `DeliveryQueue`, which queues deliveries right after their commit in every process
 * that writes them.
 */
@Module({
  imports: [
    BullModule.registerQueueAsync({
      name: WEBHOOK_QUEUE,
      inject: [PunctualConfig],
      useFactory: (config: PunctualConfig) => ({ prefix: queuePrefixOf(config.redis.queuePrefix, WEBHOOK_QUEUE) }),
    }),
  ],
  providers: [
    { provide: QUIET_QUEUE, inject: [getQueueToken(WEBHOOK_QUEUE)], useFactory: (queue: Queue) => queue.on('error', () => undefined) },
    DeliveryQueue,
  ],
  exports: [BullModule, DeliveryQueue],
})
export class WebhookQueueModule {}
