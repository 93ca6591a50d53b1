import { ActionStatus } from '../action-vocabulary';
import { ActionState, HistoryDraft, attemptNumber } from './action-state';
import type { LifecycleEvent } from './lifecycle-event';

/** What happened to an action that its client is told about (lifecycle webhooks). */
export const ACTION_NOTICE_TYPES = [
  'action.succeeded',
  'action.attempt_failed',
  'action.failed',
  'action.no_action',
  'action.canceled',
  'action.paused',
  'action.resumed',
  'action.occurrence_skipped',
] as const;
export type ActionNoticeType = (typeof ACTION_NOTICE_TYPES)[number];

/** Every event type a webhook subscription can ask for: the action notices, and the subscription's own test. */
export const WEBHOOK_EVENT_TYPES = [...ACTION_NOTICE_TYPES, 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A transition's notice: which event, for which attempt of which occurrence, with the attempt's note. */
export interface ActionNotice {
  readonly type: ActionNoticeType;
  readonly occurrence: number;
  readonly attempt: number;
  readonly note: string | null;
}

/**
 * The notice a transition gives, or null: an attempt's end (succeeded, failed and retried, failed
 * for good, lost with its worker), the end of an action no module knows, and a cancellation taking
 * effect, a pause and a resume. A client's own change, retry or cancel request tells it nothing it
 * does not know.
 */
export function noticeOf(before: ActionState, after: ActionState, event: LifecycleEvent, entry: HistoryDraft): ActionNotice | null {
  // However it came (at once, or at the end of the attempt it waited for), the end is the cancellation; the note tells the attempt's result.
  if (after.status === ActionStatus.Canceled) return { type: 'action.canceled', occurrence: before.occurrence, attempt: entry.attempt, note: entry.note };
  const failedType = after.status === ActionStatus.Failed ? 'action.failed' : 'action.attempt_failed';
  switch (event.type) {
    case 'succeeded':
      return { type: 'action.succeeded', occurrence: before.occurrence, attempt: entry.attempt, note: entry.note };
    case 'failed':
      return { type: failedType, occurrence: before.occurrence, attempt: entry.attempt, note: entry.note };
    case 'interrupted':
      // The entry opens the next attempt; the notice is about the one that was lost.
      return { type: failedType, occurrence: before.occurrence, attempt: attemptNumber(before), note: after.lastError };
    case 'typeUnknown':
      return { type: 'action.no_action', occurrence: before.occurrence, attempt: entry.attempt, note: entry.note };
    case 'paused':
      return { type: 'action.paused', occurrence: before.occurrence, attempt: 0, note: entry.note };
    case 'resumed':
      return { type: 'action.resumed', occurrence: before.occurrence, attempt: 0, note: entry.note };
    case 'claimed':
    case 'skipRequested':
    case 'calendarDate':
    case 'patched':
    case 'retriedManually':
    case 'canceled':
    case 'deleted':
      return null;
  }
}
