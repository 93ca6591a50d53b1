import { Injectable } from '@nestjs/common';
import { Worker } from 'bullmq';
import { ActionQueues } from '@app/scheduling';
import type { ConsumedQueuesPort, ConsumerHandlers, QueueConsumer } from './consumed-queues.port';
import type { QueuedWork } from './queued-work';

/** The worker's consumers as BullMQ workers, and parked jobs woken with BullMQ's `promote`. */
@Injectable()
export class BullConsumedQueues implements ConsumedQueuesPort {
  constructor(private readonly queues: ActionQueues) {}

  consume<Data>(work: QueuedWork<Data>, handlers: ConsumerHandlers<Data>): QueueConsumer {
    const worker = new Worker<Data, string>(work.queue, (job, token) => handlers.process(job, token), work.options);
    worker.on('error', (error) => handlers.error(error));
    worker.on('failed', (job, error) => handlers.failed(job, error));
    return { running: () => worker.isRunning() && !worker.closing, close: () => worker.close() };
  }

  async wake(queue: string, jobId: string): Promise<boolean> {
    const job = await this.queues.queueFor(queue).getJob(jobId);
    if (!job) return false;
    try {
      await job.promote();
      return true;
    } catch {
      return false;
    }
  }
}
