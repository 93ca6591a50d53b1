import { Logger } from '@nestjs/common';
import { Worker } from 'bullmq';

/**
 * Closes BullMQ workers: they take no new jobs and running ones may finish, for up to `timeoutMs`;
 * then they are closed at once (their jobs are re-run elsewhere once their locks lapse), so that a
 * Redis outage or a hanging job never keeps a stopping process alive.
 */
export async function closeWorkers(workers: readonly Worker[], timeoutMs: number, logger: Logger, what: string): Promise<void> {
  const closing = Promise.all(workers.map((worker) => worker.close()));
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, timeoutMs, 'timeout').unref());
  if ((await Promise.race([closing, timeout])) === 'timeout') {
    logger.warn(`Running ${what} did not finish within ${timeoutMs} ms; they will be run again by another worker`);
    await Promise.all(workers.map((worker) => worker.close(true)));
  }
}
