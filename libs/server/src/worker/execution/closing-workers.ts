import type { QueueConsumer } from './consumed-queues.port';

/** Queue consumers told to close: from then on they take no new jobs, and running ones may finish. */
export class ClosingWorkers {
  private readonly closed: Promise<true>;
  private readonly since = performance.now();

  constructor(workers: readonly QueueConsumer[]) {
    this.closed = Promise.all(workers.map((worker) => worker.close())).then(
      () => true,
      () => true,
    );
  }

  /** Whether they closed within `ms` of being told to. */
  closedBy(ms: number): Promise<boolean> {
    return this.closedWithin(this.since + ms - performance.now());
  }

  /**
   * Whether they closed within `ms` from now. A stopping process that runs out of time stops
   * waiting rather than forcing BullMQ's close: a forced close cannot cut short one already
   * waiting for its jobs, so it would keep the process alive until they end.
   */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), false).unref()));
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
