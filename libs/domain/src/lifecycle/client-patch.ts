import { ActionStatus } from '../action-vocabulary';
import { DEFAULT_DST_POLICY } from '../schedule/dst-policy';
import type { ActionState } from './action-state';
import { jittered } from './jitter';
import type { EventOf, Outcome } from './lifecycle-event';
import { dueAgainAt } from './next-run';
import { assertRunnableSchedule, firstCronOccurrence } from './schedule-rules';
import { requireStatus } from './status-guards';

/**
 * A client's change: fields replace the stored ones (`null` clears `endAt`, `retryPolicy`,
 * `callbackUrl`, `jitterMs` and `calendar`, and sets `dstPolicy` back to its default);
 * `repeat: false` drops the schedule. A new executionTime, cron or zone gives a new current
 * occurrence (for cron, the first cron time at or after the executionTime) and bumps the revision.
 * The result must still be a runnable schedule (`assertRunnableSchedule`).
 */
export function patched(state: ActionState, { type, changes, by, now }: EventOf<'patched'>): Outcome {
  requireStatus(state, type, [ActionStatus.Pending]);
  // An empty change is no change: it must not grow the history.
  if (Object.values(changes).every((value) => value === undefined)) return { changes: {}, entry: null };
  const next: { -readonly [K in keyof ActionState]?: ActionState[K] } = {};
  for (const field of [
    'data',
    'metadata',
    'misfirePolicy',
    'executionRemainder',
    'endAt',
    'retryPolicy',
    'timezone',
    'callbackUrl',
    'jitterMs',
    'calendar',
  ] as const) {
    if (changes[field] !== undefined) Object.assign(next, { [field]: changes[field] });
  }
  // Whoever sets what is sent signs it, so no key can have another's signature put on its own body or URL.
  if (changes.data !== undefined) next.dataKeyId = by;
  if (changes.callbackUrl !== undefined) next.callbackKeyId = by;
  if (changes.frequency !== undefined) Object.assign(next, { frequency: changes.frequency, cron: null });
  if (changes.cron !== undefined) Object.assign(next, { cron: changes.cron, frequency: changes.frequency ?? null });
  const repeat = changes.repeat ?? state.repeat;
  if (changes.repeat !== undefined) next.repeat = repeat;
  if (changes.dstPolicy !== undefined) next.dstPolicy = changes.dstPolicy ?? (repeat ? DEFAULT_DST_POLICY : null);
  if (!repeat && changes.repeat === false) {
    Object.assign(next, { frequency: null, cron: null, executionRemainder: null, timezone: null, dstPolicy: null, calendar: null });
  }
  if (repeat && (next.timezone ?? state.timezone) === null) next.timezone = 'UTC';
  if (repeat && (next.dstPolicy ?? state.dstPolicy) === null) next.dstPolicy = DEFAULT_DST_POLICY;
  const merged = { ...state, ...next };
  const executionTime = changes.executionTime ?? state.executionTime;
  const movesSchedule =
    changes.executionTime !== undefined || changes.cron !== undefined || changes.timezone !== undefined || changes.dstPolicy !== undefined;
  if (movesSchedule) {
    const time =
      merged.repeat && merged.cron && !merged.frequency
        ? firstCronOccurrence(merged.cron, merged.timezone ?? 'UTC', executionTime, merged.dstPolicy ?? DEFAULT_DST_POLICY)
        : executionTime;
    Object.assign(next, { executionTime: time, scheduleAnchor: time, ...dueAgainAt(state, jittered(merged, time, state.occurrence), now) });
  } else if (changes.jitterMs !== undefined && state.retryCount === 0) {
    // A new jitter moves the current occurrence's first attempt (a retry keeps its backoff).
    Object.assign(next, dueAgainAt(state, jittered(merged, state.executionTime, state.occurrence), now));
  }
  assertRunnableSchedule({ ...state, ...next });
  const changed = Object.keys(changes).join(', ');
  return { changes: next, entry: { to: ActionStatus.Pending, attempt: 0, note: `updated ${changed}` } };
}
