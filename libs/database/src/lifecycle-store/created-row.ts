import { ActionEntity } from '../entities/action.entity';
import { NewAction } from '../repositories/action-query.types';

/**
 * A created action as a store answers it without reading it back: what was sent, unclaimed and
 * unfinished, with the store's times, on `blank` (an entity holding no values yet).
 */
export function createdRow(blank: ActionEntity, sent: NewAction, createdAt: Date, updatedAt: Date): ActionEntity {
  return Object.assign(blank, sent.state, {
    id: sent.id,
    tenantId: sent.tenantId,
    action: sent.action,
    apiKeyId: sent.apiKeyId,
    claimToken: null,
    claimedUntil: null,
    finishedAt: null,
    createdAt,
    updatedAt,
  });
}
