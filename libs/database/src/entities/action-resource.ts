import type { ActionResource } from '@punctual/contract';
import { ActionEntity } from './action.entity';

/** An action as clients see it: in API answers, and in the lifecycle webhooks that describe it. */
export type { ActionResource };

/** The resource of a stored action; schedule fields are null for a one-off action. */
export function actionResource(entity: ActionEntity): ActionResource {
  return {
    id: entity.id,
    action: entity.action,
    status: entity.status,
    executionTime: entity.executionTime.toISOString(),
    data: entity.data,
    metadata: entity.metadata,
    repeat: entity.repeat,
    frequency: entity.repeat ? entity.frequency : null,
    executionRemainder: entity.repeat ? entity.executionRemainder : null,
    cron: entity.repeat ? entity.cron : null,
    timezone: entity.repeat ? entity.timezone : null,
    endAt: entity.endAt?.toISOString() ?? null,
    misfirePolicy: entity.repeat ? entity.misfirePolicy : null,
    retryPolicy: entity.retryPolicy,
    callbackUrl: entity.callbackUrl,
    retryCount: entity.retryCount,
    lastError: entity.lastError,
    occurrence: entity.occurrence,
    nextAttemptAt: entity.nextAttemptAt.toISOString(),
    cancelRequestedAt: entity.cancelRequestedAt?.toISOString() ?? null,
    paused: entity.pausedFrom !== null,
    jitterMs: entity.jitterMs,
    dstPolicy: entity.dstPolicy,
    calendar: entity.calendar,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
