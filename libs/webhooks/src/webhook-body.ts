import { ClaimedDelivery, actionResource } from '@app/database';

/**
 * The body of an event, the same bytes on every attempt: `{ type, timestamp, data }` where an
 * action event's data holds the action as it was right after the change, and the occurrence,
 * attempt and note of the attempt it tells about.
 */
export function webhookBody(event: ClaimedDelivery['event']): string {
  const data = event.action
    ? { action: actionResource(event.action), occurrence: event.occurrence, attempt: event.attempt, note: event.note }
    : { message: 'A test event: this endpoint receives Punctual webhooks' };
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data });
}
