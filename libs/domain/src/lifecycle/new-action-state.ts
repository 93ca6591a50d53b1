import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { DEFAULT_DST_POLICY, DstPolicy } from '../schedule/dst-policy';
import { ActionState, HistoryDraft } from './action-state';
import { jittered } from './jitter';
import { ActionRetryPolicy } from './retry-policy';
import { InvalidChangeError } from './lifecycle.errors';
import { assertRunnableSchedule, firstCronOccurrence } from './schedule-rules';

/** What a client asks for when it creates an action, after validation of each field. */
export interface ActionRequest {
  /** When to run; for a cron action, when its schedule starts (now when not given). */
  executionTime: Date | null;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  repeat: boolean;
  frequency: Frequency | null;
  cron: string | null;
  timezone: string | null;
  executionRemainder: number | null;
  endAt: Date | null;
  misfirePolicy: MisfirePolicy;
  retryPolicy: ActionRetryPolicy | null;
  callbackUrl: string | null;
  /** Each occurrence runs up to this long after its time; null: at its time. */
  jitterMs: number | null;
  /** For a repeating action; null: the default (shift, first). */
  dstPolicy: DstPolicy | null;
  /** The calendar whose dates a repeating action skips; null: none. */
  calendar: string | null;
}

/**
 * A new action's first state and history entry: PENDING, first occurrence, due at executionTime
 * (for cron, the first cron time at or after it) plus its jitter (fixed by `jitterSeed`), its calls
 * and events signed by `keyId`. Throws `InvalidChangeError` naming the field
 * when the schedule could never run.
 */
export function newActionState(request: ActionRequest, keyId: string, now: Date, jitterSeed: number): { state: ActionState; history: HistoryDraft } {
  const repeat = request.repeat;
  const timezone = repeat ? (request.timezone ?? 'UTC') : request.timezone;
  const requested = request.executionTime ?? now;
  // A one-off action with a dstPolicy keeps it, for assertRunnableSchedule to refuse.
  const dstPolicy = repeat ? (request.dstPolicy ?? DEFAULT_DST_POLICY) : request.dstPolicy;
  const executionTime =
    repeat && request.cron && !request.frequency ? firstCronOccurrence(request.cron, timezone!, requested, dstPolicy ?? DEFAULT_DST_POLICY) : requested;
  // Every field written out: a spread of the request overwritten field by field took V8's slow path,
  // the largest single cost of a create.
  const state: ActionState = {
    status: ActionStatus.Pending,
    data: request.data,
    metadata: request.metadata,
    repeat,
    frequency: repeat ? request.frequency : null,
    cron: request.cron,
    timezone,
    executionRemainder: repeat ? request.executionRemainder : null,
    endAt: request.endAt,
    misfirePolicy: request.misfirePolicy,
    retryPolicy: request.retryPolicy,
    callbackUrl: request.callbackUrl,
    executionTime,
    occurrence: 1,
    retryCount: 0,
    lastError: null,
    nextAttemptAt: jittered({ jitterMs: request.jitterMs, jitterSeed }, executionTime, 1),
    runnableSince: now,
    scheduleAnchor: executionTime,
    revision: 0,
    dataKeyId: keyId,
    callbackKeyId: keyId,
    cancelRequestedAt: null,
    pausedFrom: null,
    skipPending: 0,
    jitterMs: request.jitterMs,
    jitterSeed,
    dstPolicy,
    calendar: request.calendar,
  };
  if (request.executionTime === null && !state.cron)
    throw new InvalidChangeError('executionTime is required (it may be omitted only with a cron schedule)');
  assertRunnableSchedule(state);
  return { state, history: { from: null, to: ActionStatus.Pending, occurrence: 1, attempt: 0, note: 'created' } };
}
