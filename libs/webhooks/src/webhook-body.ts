import { ClaimedDelivery, actionResource } from '@app/database';

/**
 * The body of an event, the same bytes on every attempt: `{ type, timestamp, data }` where an
 * action event's data holds the action as it was right after the change, and the occurrence,
 * attempt and note of the attempt it tells about (and, for skipped occurrences, the reason, the
 * earliest skipped times and their count).
 */
export function webhookBody(event: ClaimedDelivery['event']): string {
  const reason = event.reason === null ? {} : { reason: event.reason };
  const skipped = event.skipped === null ? {} : { skipped: event.skipped.times, count: event.skipped.count };
  const data = event.action
    ? { action: actionResource(event.action), occurrence: event.occurrence, attempt: event.attempt, note: event.note, ...reason, ...skipped }
    : { message: 'A test event: this endpoint receives Punctual webhooks' };
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data });
}
