import { QueueableAction } from '@app/database';
import { attemptNumber } from '@app/domain';

/** What a queue job carries: ids only. The worker loads the row; Redis never holds action data. */
export interface ActionJobData {
  actionId: string;
  revision: number;
  /** Whose action it is, for the tenant's concurrency limit. Absent from jobs queued before tenants. */
  tenantId?: string;
}

/**
 * `<id>_o<occurrence>_a<attempt>_r<revision>`. The revision changes with every new due time, so
 * each scheduled attempt is queued at most once, and a patched or retried action is never
 * deduplicated against its old job. BullMQ forbids `:` in custom ids, hence `_`.
 */
export function jobIdFor(action: Pick<QueueableAction, 'id' | 'occurrence' | 'retryCount' | 'revision'>): string {
  return `${action.id}_o${action.occurrence}_a${attemptNumber(action)}_r${action.revision}`;
}
