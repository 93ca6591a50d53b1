/** Where an action is in its lifecycle. Only Punctual changes it. */
export enum ActionStatus {
  Pending = 'PENDING',
  InProgress = 'IN_PROGRESS',
  Completed = 'COMPLETED',
  Failed = 'FAILED',
  NoAction = 'NO_ACTION',
  /** Stopped by its owner (`POST /actions/:id/cancel`): it never runs again. */
  Canceled = 'CANCELED',
}

export const ALL_STATUSES: readonly ActionStatus[] = Object.values(ActionStatus);

/** States an action never leaves by itself; they may be deleted at any time and are purged after retention. */
export const TERMINAL_STATUSES: readonly ActionStatus[] = [ActionStatus.Completed, ActionStatus.Failed, ActionStatus.NoAction, ActionStatus.Canceled];

/** How often a repeating action runs. */
export enum Frequency {
  TenMins = 'TEN_MINS',
  Hourly = 'HOURLY',
  Daily = 'DAILY',
  Weekly = 'WEEKLY',
  Monthly = 'MONTHLY',
}

/**
 * What a repeating action does when its next time has already passed when an occurrence
 * completes (workers were down, or the action was created late).
 */
export enum MisfirePolicy {
  /** Run one catch-up now, then continue with the first scheduled time after now. */
  RunOnce = 'RUN_ONCE',
  /** Run every missed occurrence in turn, as far as executionRemainder allows. */
  RunAll = 'RUN_ALL',
  /** Run none of them: continue with the first scheduled time after now. */
  Skip = 'SKIP',
}
