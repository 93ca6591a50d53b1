import { ClaimedDelivery, actionResource } from '@app/database';

/**
 * The body of an event, the same bytes on every attempt: `{ type, timestamp, data }` where an
 * action event's data holds the action as it was right after the change, and the occurrence,
 * attempt and note of the attempt it tells about (and, for a skipped occurrence, the reason).
 */
export function webhookBody(event: ClaimedDelivery['event']): string {
  const reason = event.reason === null ? {} : { reason: event.reason };
  const data = event.action
    ? { action: actionResource(event.action), occurrence: event.occurrence, attempt: event.attempt, note: event.note, ...reason }
    : { message: 'A test event: this endpoint receives Punctual webhooks' };
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data });
}
