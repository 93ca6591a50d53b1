import { ActionState, ActionStatus, HistoryDraft } from '@app/domain';

/** A validated action to store, in its first lifecycle state; ids come from the caller so jobs and keys can name them before commit. */
export interface NewAction {
  id: string;
  action: string;
  /** The tenant of the API key that created it. */
  tenantId: string;
  /** The API key that created it. */
  apiKeyId: string;
  state: ActionState;
  history: HistoryDraft;
}

export interface ActionListFilter {
  status?: ActionStatus;
  action?: string;
  /** Only actions paused (`pausedFrom` set) or only those not paused. */
  paused?: boolean;
  limit: number;
  /** Keyset position: list strictly after this (executionTime, id) in the order asked for. */
  after?: { executionTime: Date; id: string };
  /** Latest executionTime first, instead of the earliest. */
  descending?: boolean;
  /** Only actions whose executionTime is at or after `dueFrom` and before `dueBefore`. */
  dueFrom?: Date;
  dueBefore?: Date;
}

export interface ActionStats {
  total: number;
  byStatus: Record<ActionStatus, number>;
  byAction: Record<string, Partial<Record<ActionStatus, number>>>;
}
