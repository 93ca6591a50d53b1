import { AdvisoryLock } from './advisory-lock';
import { PeriodicSettings, PeriodicTask } from './periodic-task';

/**
 * A periodic task that runs on one process at a time among all: the one holding `lock` (a
 * session-level lock keeps one process leading run after run; a transaction-scoped one is taken
 * again for each run). Every other process follows instead. The lock is let go once the run in
 * progress at shutdown is over, so that another process takes over at its next run.
 */
export abstract class LeaderTask<Scope> extends PeriodicTask {
  protected constructor(
    settings: PeriodicSettings,
    private readonly lock: AdvisoryLock<Scope>,
  ) {
    super(settings);
  }

  /** One run, on the process holding the lock. */
  protected abstract lead(scope: Scope): Promise<unknown>;

  /** A run on a process that does not lead: another holds the lock, or this one just failed while leading. */
  protected follow(): void {}

  protected async run(): Promise<void> {
    try {
      const led = await this.lock.whileHeld(async (scope) => {
        await this.lead(scope);
        return true;
      });
      if (!led) this.follow();
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
