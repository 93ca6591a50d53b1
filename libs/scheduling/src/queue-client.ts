import { Queue } from 'bullmq';
import Redis from 'ioredis';

/**
 * A queue's own Redis connection. BullMQ 6 reaches Redis through its backend and types the client
 * narrowly; it is the ioredis connection it was given options for.
 */
export async function queueClient(queue: Queue): Promise<Redis> {
  return (await queue.getBackend().client) as unknown as Redis;
}
