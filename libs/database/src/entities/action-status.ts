/** Where an action is in its lifecycle. Only Punctual changes it. */
export enum ActionStatus {
  Pending = 'PENDING',
  InProgress = 'IN_PROGRESS',
  Completed = 'COMPLETED',
  Failed = 'FAILED',
  NoAction = 'NO_ACTION',
}

export const ALL_STATUSES: readonly ActionStatus[] = Object.values(ActionStatus);

/** States an action never leaves by itself; they may be deleted at any time and are purged after retention. */
export const TERMINAL_STATUSES: readonly ActionStatus[] = [ActionStatus.Completed, ActionStatus.Failed, ActionStatus.NoAction];

/** How often a repeating action runs. */
export enum Frequency {
  TenMins = 'TEN_MINS',
  Hourly = 'HOURLY',
  Daily = 'DAILY',
  Weekly = 'WEEKLY',
  Monthly = 'MONTHLY',
}
