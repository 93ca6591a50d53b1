import { ActionStatus, Frequency, MisfirePolicy } from '../entities/action-status';
import { JsonObject } from '../entities/action.entity';

/** A validated action to store; ids come from the caller so jobs and keys can name them before commit. */
export interface NewAction {
  id: string;
  action: string;
  executionTime: Date;
  data: JsonObject;
  metadata: JsonObject;
  repeat: boolean;
  frequency: Frequency | null;
  executionRemainder: number | null;
  misfirePolicy: MisfirePolicy;
}

/** Fields a client may change on a PENDING action outside the lock window. */
export interface ActionChanges {
  executionTime?: Date;
  data?: JsonObject;
  metadata?: JsonObject;
  repeat?: boolean;
  frequency?: Frequency | null;
  executionRemainder?: number | null;
  misfirePolicy?: MisfirePolicy;
}

export interface ActionListFilter {
  status?: ActionStatus;
  action?: string;
  limit: number;
  /** Keyset position: list strictly after this (executionTime, id). */
  after?: { executionTime: Date; id: string };
}

export interface ActionStats {
  total: number;
  byStatus: Record<ActionStatus, number>;
  byAction: Record<string, Partial<Record<ActionStatus, number>>>;
}
