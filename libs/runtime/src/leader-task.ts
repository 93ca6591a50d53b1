import { PeriodicSettings, PeriodicTask } from './periodic-task';

/** Leadership among all processes: work that one of them does at a time, the one holding the lock (in Postgres, an advisory lock). */
export interface AdvisoryLock<Scope> {
  /** Runs `work` holding the lock, or returns null at once when another process holds it. */
  whileHeld<T>(work: (scope: Scope) => Promise<T>): Promise<T | null>;
  /** Lets the lock go for good, so that another process takes it at its next try. */
  release(): Promise<void>;
}

/**
 * A periodic task that runs on one process at a time among all: the one holding `lock` (a
 * session-level lock keeps one process leading run after run; a transaction-scoped one is taken
 * again for each run). Every other process follows instead. The lock is let go once the run in
 * progress at shutdown is over, so that another process takes over at its next run.
 */
export abstract class LeaderTask<Scope, Led = unknown> extends PeriodicTask {
  protected constructor(
    settings: PeriodicSettings,
    private readonly lock: AdvisoryLock<Scope>,
  ) {
    super(settings);
  }

  /** One run, on the process holding the lock, within its scope: for a TransactionLock, inside its transaction. */
  protected abstract lead(scope: Scope): Promise<Led>;

  /** A run on a process that does not lead: another holds the lock, or this one just failed while leading. */
  protected follow(): void {}

  protected run(): Promise<unknown> {
    return this.tryLead();
  }

  /** Leads if this process gets the lock: what `lead` returned, once the lock's scope is over; null when it follows. */
  protected async tryLead(): Promise<Led | null> {
    try {
      const led = await this.lock.whileHeld(async (scope) => ({ result: await this.lead(scope) }));
      if (!led) this.follow();
      return led ? led.result : null;
    } catch (error) {
      this.follow();
      throw error;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    await this.lock.release();
  }
}
