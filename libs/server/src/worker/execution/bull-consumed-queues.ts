import { Injectable } from '@nestjs/common';
import { QueueBase, Worker } from 'bullmq';
import { ActionQueues } from '@app/scheduling';
import type { ConsumedQueuesPort, ConsumerHandlers, QueueConsumer } from './consumed-queues.port';
import type { QueuedWork } from './queued-work';

/** The worker's consumers as BullMQ workers, and parked jobs woken with BullMQ's `promote`. */
@Injectable()
export class BullConsumedQueues implements ConsumedQueuesPort {
  /** The BullMQ worker of each queue this process consumes, by queue name. */
  private readonly workers = new Map<string, Worker>();

  constructor(private readonly queues: ActionQueues) {}

  consume<Data>(work: QueuedWork<Data>, handlers: ConsumerHandlers<Data>): QueueConsumer {
    const worker = new Worker<Data, string>(work.queue, (job, token) => handlers.process(job, token), work.options);
    worker.on('error', (error) => handlers.error(error));
    worker.on('failed', (job, error) => handlers.failed(job, error));
    this.workers.set(work.queue, worker);
    return { running: () => worker.isRunning() && !worker.closing, close: () => worker.close() };
  }

  /**
   * Promotes the job by id through the queue's worker here, without loading it first; a tenant's
   * freed slot can wake a job of a type this process does not serve, through its queue.
   */
  async wake(queue: string, jobId: string): Promise<boolean> {
    const owner: QueueBase = this.workers.get(queue) ?? this.queues.queueFor(queue);
    try {
      await owner.getBackend().promote(jobId);
      return true;
    } catch {
      return false;
    }
  }
}
