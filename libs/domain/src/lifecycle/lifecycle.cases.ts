// The lifecycle's table: each case a state, an event, and what the transition must be. The
// lifecycle's spec checks transition() against it; test/lifecycle-store.e2e-spec.ts runs every
// case through the store on Postgres, so what is persisted cannot drift from what was decided.
import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { DEFAULT_DST_POLICY } from '../schedule/dst-policy';
import { ActionState } from './action-state';
import { CatchUpPolicy } from './catch-up';
import { jittered } from './jitter';
import { LifecycleEvent } from './lifecycle-event';
import { RetryPolicy } from './retry-policy';

export const now = new Date('2025-03-01T12:00:00.000Z');
export const at = (iso: string) => new Date(iso);
export const policy: RetryPolicy = { maxRetries: 2, backoff: { kind: 'fixed-list', delaysMs: [1000, 5000] } };

export function state(overrides: Partial<ActionState> = {}): ActionState {
  const executionTime = overrides.executionTime ?? at('2025-03-01T11:59:00.000Z');
  return {
    status: ActionStatus.InProgress,
    occurrence: 1,
    retryCount: 0,
    lastError: null,
    executionTime,
    nextAttemptAt: executionTime,
    runnableSince: at('2025-03-01T11:00:00.000Z'),
    scheduleAnchor: executionTime,
    repeat: false,
    frequency: null,
    cron: null,
    timezone: null,
    executionRemainder: null,
    endAt: null,
    misfirePolicy: MisfirePolicy.RunOnce,
    retryPolicy: null,
    data: {},
    metadata: {},
    callbackUrl: null,
    dataKeyId: 'creator',
    callbackKeyId: 'creator',
    cancelRequestedAt: null,
    pausedFrom: null,
    skipPending: 0,
    dstPolicy: null,
    calendar: null,
    jitterMs: null,
    jitterSeed: 0,
    revision: 4,
    ...overrides,
  };
}
export const hourly = (overrides: Partial<ActionState> = {}) =>
  state({ repeat: true, frequency: Frequency.Hourly, timezone: 'UTC', executionRemainder: 10, dstPolicy: DEFAULT_DST_POLICY, ...overrides });
export const late = { executionTime: at('2025-03-01T07:30:00.000Z') };
/** RUN_ALL's pace and cap in the cases: catch-ups a second apart, the latest 100 missed occurrences at most. */
export const catchUp: CatchUpPolicy = { intervalMs: 1000, max: 100 };
export const ok = (note: string | null = 'HTTP 200', policy: CatchUpPolicy = catchUp): LifecycleEvent => ({
  type: 'succeeded',
  now,
  note,
  catchUp: policy,
});
export const fail = (permanent = false): LifecycleEvent => ({ type: 'failed', now, error: 'HTTP 500', permanent, retryPolicy: policy });
/** A failure whose fulfillment asked for the next attempt `retryAfterMs` from now (`RetryLaterError`). */
export const failRetryingAfter = (retryAfterMs: number, permanent = false): LifecycleEvent => ({
  type: 'failed',
  now,
  error: `HTTP 429; retry asked in ${retryAfterMs} ms`,
  permanent,
  retryPolicy: policy,
  retryAfterMs,
});
export const LOCK_WINDOW_MS = 120_000;
export const cancel = (note: string | null = null): LifecycleEvent => ({ type: 'canceled', now, note, lockWindowMs: LOCK_WINDOW_MS });
export const requested = { cancelRequestedAt: at('2025-03-01T11:59:30.000Z') };
export const pause = (note: string | null = null): LifecycleEvent => ({ type: 'paused', now, note, lockWindowMs: LOCK_WINDOW_MS });
/** The cases' catch-up policy with a smaller cap. */
export const capped = (max: number): CatchUpPolicy => ({ ...catchUp, max });
export const resume: LifecycleEvent = { type: 'resumed', now, catchUp };
export const skip = (count = 1): LifecycleEvent => ({ type: 'skipRequested', now, count, lockWindowMs: LOCK_WINDOW_MS });
/** The calendar the cases name; the store's drift spec creates it. */
export const CASE_CALENDAR = 'case-holidays';
export const onCalendarDate: LifecycleEvent = { type: 'calendarDate', now, catchUp };
const dueOnHoliday = (overrides: Partial<ActionState> = {}) =>
  hourly({ status: ActionStatus.Pending, occurrence: 2, calendar: CASE_CALENDAR, ...overrides });

/** A transition the lifecycle makes: [name, state before, event, fields after, history entry, finished]. */
export type TransitionCase = [name: string, before: ActionState, event: LifecycleEvent, after: Partial<ActionState>, entry: object, finished: boolean];

export const TRANSITION_CASES: TransitionCase[] = [
  [
    'a claim starts the first attempt',
    state({ status: ActionStatus.Pending }),
    { type: 'claimed' },
    { status: ActionStatus.InProgress, retryCount: 0, revision: 4, runnableSince: at('2025-03-01T11:00:00.000Z') },
    { from: 'PENDING', to: 'IN_PROGRESS', attempt: 1, occurrence: 1, note: null },
    false,
  ],
  [
    'a claim after failures starts the next attempt of the same occurrence',
    hourly({ status: ActionStatus.Pending, occurrence: 3, retryCount: 2, lastError: 'HTTP 500' }),
    { type: 'claimed' },
    { status: ActionStatus.InProgress, retryCount: 2, occurrence: 3, lastError: 'HTTP 500' },
    { from: 'PENDING', to: 'IN_PROGRESS', attempt: 3, occurrence: 3, note: null },
    false,
  ],
  [
    'success completes a one-off action',
    state(),
    ok(),
    { status: ActionStatus.Completed, retryCount: 0, lastError: null, revision: 4 },
    { from: 'IN_PROGRESS', to: 'COMPLETED', attempt: 1, occurrence: 1, note: 'HTTP 200' },
    true,
  ],
  [
    'success after failures resets the count',
    state({ retryCount: 2, lastError: 'x' }),
    ok(),
    { status: ActionStatus.Completed, retryCount: 0, lastError: null },
    { to: 'COMPLETED', attempt: 3 },
    true,
  ],
  [
    'success completes a repeating action on its last execution',
    hourly({ executionRemainder: 1 }),
    ok(),
    { status: ActionStatus.Completed, executionRemainder: 0 },
    { to: 'COMPLETED' },
    true,
  ],
  [
    'success moves a repeating action one step from its scheduled time',
    hourly(),
    ok(),
    {
      status: ActionStatus.Pending,
      occurrence: 2,
      executionRemainder: 9,
      executionTime: at('2025-03-01T12:59:00.000Z'),
      nextAttemptAt: at('2025-03-01T12:59:00.000Z'),
      runnableSince: now,
      revision: 5,
    },
    { from: 'IN_PROGRESS', to: 'PENDING', occurrence: 1, attempt: 1 },
    false,
  ],
  [
    'RUN_ALL runs the first missed occurrence next, paced: a catch-up interval after the run',
    hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll }),
    ok(null),
    { executionTime: at('2025-03-01T08:30:00.000Z'), nextAttemptAt: at('2025-03-01T12:00:01.000Z'), revision: 5 },
    { note: 'missed occurrence 2025-03-01T08:30:00.000Z runs next, at 2025-03-01T12:00:01.000Z at the earliest (RUN_ALL)' },
    false,
  ],
  [
    'RUN_ALL runs only the latest MAX_CATCH_UP missed occurrences: the older ones are skipped, no execution consumed',
    hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll }),
    ok(null, capped(2)),
    { occurrence: 2, executionRemainder: 9, executionTime: at('2025-03-01T10:30:00.000Z'), nextAttemptAt: at('2025-03-01T12:00:01.000Z') },
    {
      note:
        'missed occurrences before 2025-03-01T10:30:00.000Z skipped (RUN_ALL runs the latest 2 at most); ' +
        'missed occurrence 2025-03-01T10:30:00.000Z runs next, at 2025-03-01T12:00:01.000Z at the earliest (RUN_ALL)',
    },
    false,
  ],
  [
    'RUN_ALL catches up only on missed occurrences up to endAt',
    hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll, endAt: at('2025-03-01T09:45:00.000Z') }),
    ok(null, capped(1)),
    { status: ActionStatus.Pending, executionTime: at('2025-03-01T09:30:00.000Z'), nextAttemptAt: at('2025-03-01T12:00:01.000Z') },
    { to: 'PENDING', note: expect.stringMatching(/^missed occurrences before 2025-03-01T09:30:00.000Z skipped/) },
    false,
  ],
  [
    'RUN_ONCE catches up on the latest missed occurrence up to endAt',
    hourly({ ...late, endAt: at('2025-03-01T09:45:00.000Z') }),
    ok(null),
    { status: ActionStatus.Pending, occurrence: 2, executionTime: at('2025-03-01T09:30:00.000Z') },
    { to: 'PENDING', note: 'missed occurrences up to 2025-03-01T09:30:00.000Z: one catch-up runs now (RUN_ONCE)' },
    false,
  ],
  [
    'a RUN_ALL catch-up whose jitter falls after its pace keeps its jitter',
    hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll, executionTime: at('2025-03-01T10:59:00.000Z'), jitterMs: 3_600_000, jitterSeed: 3 }),
    ok(null),
    {
      executionTime: at('2025-03-01T11:59:00.000Z'),
      nextAttemptAt: new Date(
        Math.max(jittered({ jitterMs: 3_600_000, jitterSeed: 3 }, at('2025-03-01T11:59:00.000Z'), 2).getTime(), now.getTime() + catchUp.intervalMs),
      ),
    },
    { to: 'PENDING' },
    false,
  ],
  [
    'SKIP continues with the first time after now',
    hourly({ ...late, misfirePolicy: MisfirePolicy.Skip }),
    ok(null),
    { executionTime: at('2025-03-01T12:30:00.000Z'), executionRemainder: 9 },
    { note: expect.stringMatching(/skipped \(SKIP\)/) },
    false,
  ],
  [
    'RUN_ONCE runs one catch-up at the latest missed time',
    hourly(late),
    ok(),
    { executionTime: at('2025-03-01T11:30:00.000Z') },
    { note: expect.stringMatching(/^HTTP 200; missed .* one catch-up runs now \(RUN_ONCE\)$/) },
    false,
  ],
  [
    'a failure is retried after the backoff, same occurrence, new revision',
    state(),
    fail(),
    {
      status: ActionStatus.Pending,
      retryCount: 1,
      lastError: 'HTTP 500',
      occurrence: 1,
      nextAttemptAt: new Date(now.getTime() + 1000),
      runnableSince: now,
      revision: 5,
    },
    { to: 'PENDING', attempt: 1, note: 'HTTP 500' },
    false,
  ],
  [
    'the second retry waits the second delay',
    state({ retryCount: 1 }),
    fail(),
    { nextAttemptAt: new Date(now.getTime() + 5000), retryCount: 2 },
    { attempt: 2 },
    false,
  ],
  [
    'the last allowed attempt failing ends FAILED with retryCount 1 + maxRetries',
    state({ retryCount: 2 }),
    fail(),
    { status: ActionStatus.Failed, retryCount: 3, revision: 4 },
    { to: 'FAILED', attempt: 3 },
    true,
  ],
  ['a permanent error fails at once', state(), fail(true), { status: ActionStatus.Failed, retryCount: 1 }, { to: 'FAILED', attempt: 1 }, true],
  [
    'a failure that asks for a delay is retried after it instead of the backoff',
    state(),
    failRetryingAfter(30_000),
    { status: ActionStatus.Pending, retryCount: 1, nextAttemptAt: new Date(now.getTime() + 30_000), runnableSince: now, revision: 5 },
    { to: 'PENDING', attempt: 1, note: 'HTTP 429; retry asked in 30000 ms' },
    false,
  ],
  [
    'a failure that asks for no delay is retried at once',
    state({ retryCount: 1 }),
    failRetryingAfter(0),
    { status: ActionStatus.Pending, retryCount: 2, nextAttemptAt: now },
    { to: 'PENDING', attempt: 2 },
    false,
  ],
  [
    'a failure that asks for a delay after the last allowed attempt ends FAILED all the same',
    state({ retryCount: 2 }),
    failRetryingAfter(1000),
    { status: ActionStatus.Failed, retryCount: 3, revision: 4 },
    { to: 'FAILED', attempt: 3 },
    true,
  ],
  [
    'a permanent failure that asks for a delay fails at once',
    state(),
    failRetryingAfter(1000, true),
    { status: ActionStatus.Failed, retryCount: 1 },
    { to: 'FAILED', attempt: 1 },
    true,
  ],
  [
    'an interrupted attempt counts as failed and the next one starts',
    state({ retryCount: 1 }),
    { type: 'interrupted', retryPolicy: policy },
    { status: ActionStatus.InProgress, retryCount: 2, lastError: 'attempt 2 was interrupted (worker lost)', revision: 4 },
    { from: 'IN_PROGRESS', to: 'IN_PROGRESS', attempt: 3, note: 'attempt 2 was interrupted (worker lost); running it again as attempt 3' },
    false,
  ],
  [
    'an interrupted last attempt ends FAILED',
    state({ retryCount: 2 }),
    { type: 'interrupted', retryPolicy: policy },
    { status: ActionStatus.Failed, retryCount: 3 },
    { to: 'FAILED', attempt: 3, note: expect.stringMatching(/no retries left/) },
    true,
  ],
  [
    'an unknown type ends NO_ACTION from PENDING',
    state({ status: ActionStatus.Pending }),
    { type: 'typeUnknown', note: 'no fulfillment for FAX' },
    { status: ActionStatus.NoAction, lastError: 'no fulfillment for FAX' },
    { from: 'PENDING', to: 'NO_ACTION', attempt: 0 },
    true,
  ],
  [
    'an unknown type ends NO_ACTION from IN_PROGRESS',
    state(),
    { type: 'typeUnknown', note: 'no fulfillment' },
    { status: ActionStatus.NoAction },
    { from: 'IN_PROGRESS', attempt: 1 },
    true,
  ],
  [
    'a manual retry puts FAILED back to PENDING, due now, attempts counted afresh',
    state({ status: ActionStatus.Failed, retryCount: 3, lastError: 'x' }),
    { type: 'retriedManually', now },
    { status: ActionStatus.Pending, retryCount: 0, lastError: 'x', nextAttemptAt: now, runnableSince: now, revision: 5, occurrence: 1 },
    { from: 'FAILED', to: 'PENDING', attempt: 0, note: 'manual retry' },
    false,
  ],
  [
    'a manual retry of NO_ACTION',
    state({ status: ActionStatus.NoAction }),
    { type: 'retriedManually', now },
    { status: ActionStatus.Pending },
    { from: 'NO_ACTION' },
    false,
  ],
  [
    'a manual retry drops the cancel request that a NO_ACTION ended without honouring',
    state({ status: ActionStatus.NoAction, ...requested }),
    { type: 'retriedManually', now },
    { status: ActionStatus.Pending, cancelRequestedAt: null },
    { from: 'NO_ACTION', to: 'PENDING', note: 'manual retry' },
    false,
  ],
  [
    'a new executionTime moves the due time and anchor and bumps the revision',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', now, by: 'creator', changes: { executionTime: at('2030-01-31T00:00:00.000Z') } },
    {
      executionTime: at('2030-01-31T00:00:00.000Z'),
      nextAttemptAt: at('2030-01-31T00:00:00.000Z'),
      scheduleAnchor: at('2030-01-31T00:00:00.000Z'),
      runnableSince: now,
      revision: 5,
    },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'updated executionTime' },
    false,
  ],
  [
    'other changes keep the revision',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', now, by: 'creator', changes: { metadata: { a: 1 }, data: { b: 2 } } },
    { metadata: { a: 1 }, data: { b: 2 }, revision: 4, runnableSince: at('2025-03-01T11:00:00.000Z') },
    { note: 'updated metadata, data' },
    false,
  ],
  [
    'repeat: false clears frequency and remainder',
    hourly({ status: ActionStatus.Pending }),
    { type: 'patched', now, by: 'creator', changes: { repeat: false } },
    { repeat: false, frequency: null, executionRemainder: null },
    { note: 'updated repeat' },
    false,
  ],
  [
    'a cron action without a remainder runs on forever: the next cron time in its zone',
    state({ repeat: true, cron: '0 9 * * MON-FRI', timezone: 'Europe/Berlin', executionTime: at('2027-03-26T08:00:00.000Z') }),
    { type: 'succeeded', now: at('2027-03-26T08:00:01.000Z'), note: null, catchUp },
    { status: ActionStatus.Pending, occurrence: 2, executionRemainder: null, executionTime: at('2027-03-29T07:00:00.000Z') },
    { to: 'PENDING' },
    false,
  ],
  [
    'a cron action with a remainder completes after its last execution',
    state({ repeat: true, cron: '*/2 * * * * *', timezone: 'UTC', executionRemainder: 1 }),
    ok(),
    { status: ActionStatus.Completed, executionRemainder: 0 },
    { to: 'COMPLETED' },
    true,
  ],
  [
    'no occurrence runs after endAt: COMPLETED after the last one at or before it',
    hourly({ endAt: at('2025-03-01T12:30:00.000Z') }),
    ok(),
    { status: ActionStatus.Completed, executionRemainder: 9 },
    { to: 'COMPLETED' },
    true,
  ],
  [
    'an occurrence exactly at endAt still runs',
    hourly({ endAt: at('2025-03-01T12:59:00.000Z') }),
    ok(),
    { status: ActionStatus.Pending, executionTime: at('2025-03-01T12:59:00.000Z') },
    {},
    false,
  ],
  [
    'SKIP past endAt completes',
    hourly({ ...late, misfirePolicy: MisfirePolicy.Skip, endAt: at('2025-03-01T12:00:00.000Z') }),
    ok(),
    { status: ActionStatus.Completed },
    {},
    true,
  ],
  [
    'a per-action policy is the one given to the event: fixed delay',
    state(),
    { type: 'failed', now, error: 'x', permanent: false, retryPolicy: { maxRetries: 0, backoff: policy.backoff } },
    { status: ActionStatus.Failed, retryCount: 1 },
    { to: 'FAILED' },
    true,
  ],
  [
    'a new cron moves the occurrence to its first time at or after executionTime',
    hourly({ status: ActionStatus.Pending, executionTime: at('2030-01-01T10:15:00.000Z') }),
    { type: 'patched', now, by: 'creator', changes: { cron: '0 12 * * *' } },
    { cron: '0 12 * * *', frequency: null, executionTime: at('2030-01-01T12:00:00.000Z'), nextAttemptAt: at('2030-01-01T12:00:00.000Z'), revision: 5 },
    { note: 'updated cron' },
    false,
  ],
  [
    'null clears endAt and retryPolicy',
    hourly({
      status: ActionStatus.Pending,
      endAt: at('2031-01-01T00:00:00.000Z'),
      retryPolicy: { maxRetries: 1, backoff: { type: 'fixed', delayMs: 100 } },
    }),
    { type: 'patched', now, by: 'creator', changes: { endAt: null, retryPolicy: null } },
    { endAt: null, retryPolicy: null, revision: 4 },
    {},
    false,
  ],
  [
    'repeat: true keeps the stored frequency and remainder',
    hourly({ status: ActionStatus.Pending, repeat: false }),
    { type: 'patched', now, by: 'creator', changes: { repeat: true } },
    { repeat: true, frequency: Frequency.Hourly, executionRemainder: 10 },
    {},
    false,
  ],
  [
    'a patch of data is signed by the key that made it from now on',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', now, by: 'editor', changes: { data: { b: 2 } } },
    { dataKeyId: 'editor', callbackKeyId: 'creator' },
    { note: 'updated data' },
    false,
  ],
  [
    'a patch of the callback URL only moves its own key',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', now, by: 'editor', changes: { callbackUrl: 'https://example.com/cb', metadata: {} } },
    { dataKeyId: 'creator', callbackKeyId: 'editor' },
    {},
    false,
  ],
  [
    'cancel of a PENDING action outside the lock window ends it at once',
    state({ status: ActionStatus.Pending, executionTime: at('2025-03-01T12:02:00.001Z') }),
    cancel('not needed'),
    { status: ActionStatus.Canceled, cancelRequestedAt: now, revision: 4 },
    { from: 'PENDING', to: 'CANCELED', attempt: 0, note: 'canceled: not needed' },
    true,
  ],
  [
    'cancel of a running attempt only asks: the attempt finishes first',
    state({ occurrence: 3 }),
    cancel(),
    { status: ActionStatus.InProgress, cancelRequestedAt: now, revision: 4 },
    { from: 'IN_PROGRESS', to: 'IN_PROGRESS', attempt: 0, note: 'cancel requested; occurrence 3 finishes first' },
    false,
  ],
  [
    'cancel of a PENDING occurrence inside the lock window lets it run first',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T12:02:00.000Z') }),
    cancel(),
    { status: ActionStatus.Pending, cancelRequestedAt: now },
    { from: 'PENDING', to: 'PENDING', attempt: 0 },
    false,
  ],
  [
    'cancel while an occurrence waits out a retry ends it at once: it would get no retry anyway',
    state({ status: ActionStatus.Pending, retryCount: 1, lastError: 'HTTP 500', nextAttemptAt: at('2025-03-01T12:00:30.000Z') }),
    cancel(),
    { status: ActionStatus.Canceled, retryCount: 1, lastError: 'HTTP 500' },
    { to: 'CANCELED', attempt: 0, note: 'canceled' },
    true,
  ],
  [
    'cancel of an occurrence a pause holds ends it at once, whatever its time: it would not run',
    hourly({ status: ActionStatus.Pending, pausedFrom: 1 }),
    cancel(),
    { status: ActionStatus.Canceled, cancelRequestedAt: now },
    { from: 'PENDING', to: 'CANCELED', attempt: 0, note: 'canceled' },
    true,
  ],
  [
    'success after a cancel request ends CANCELED instead of moving on',
    hourly(requested),
    ok(),
    { status: ActionStatus.Canceled, occurrence: 1, executionRemainder: 9, executionTime: at('2025-03-01T11:59:00.000Z'), revision: 4 },
    { from: 'IN_PROGRESS', to: 'CANCELED', attempt: 1, note: 'HTTP 200; canceled as requested' },
    true,
  ],
  [
    'failure after a cancel request is not retried',
    state({ ...requested, retryCount: 1 }),
    fail(),
    { status: ActionStatus.Canceled, retryCount: 2, lastError: 'HTTP 500', nextAttemptAt: at('2025-03-01T11:59:00.000Z'), revision: 4 },
    { to: 'CANCELED', attempt: 2, note: 'HTTP 500; canceled as requested' },
    true,
  ],
  [
    'an attempt lost after a cancel request is not run again',
    state(requested),
    { type: 'interrupted', retryPolicy: policy },
    { status: ActionStatus.Canceled, retryCount: 1, lastError: 'attempt 1 was interrupted (worker lost)' },
    { to: 'CANCELED', attempt: 1 },
    true,
  ],
  [
    'pause of an occurrence due after the lock window holds it',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z') }),
    pause(),
    { status: ActionStatus.Pending, pausedFrom: 1, revision: 4 },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'paused' },
    false,
  ],
  [
    'pause of an occurrence inside the lock window lets it run first',
    hourly({ status: ActionStatus.Pending, occurrence: 2, executionTime: at('2025-03-01T12:01:00.000Z') }),
    pause('maintenance'),
    { status: ActionStatus.Pending, pausedFrom: 3 },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'paused: maintenance; occurrence 2 finishes first' },
    false,
  ],
  [
    'pause while an occurrence runs holds the next one',
    hourly({ occurrence: 3 }),
    pause(),
    { status: ActionStatus.InProgress, pausedFrom: 4 },
    { from: 'IN_PROGRESS', to: 'IN_PROGRESS', attempt: 0, note: 'paused; occurrence 3 finishes first' },
    false,
  ],
  [
    'resume of a held occurrence still to come keeps its time under a new revision',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z'), pausedFrom: 1 }),
    resume,
    { pausedFrom: null, executionTime: at('2025-03-01T13:00:00.000Z'), nextAttemptAt: at('2025-03-01T13:00:00.000Z'), revision: 5 },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'resumed' },
    false,
  ],
  [
    'resume of a one-off action whose time passed runs it now',
    state({ status: ActionStatus.Pending, pausedFrom: 1 }),
    resume,
    { pausedFrom: null, executionTime: at('2025-03-01T11:59:00.000Z'), nextAttemptAt: now, runnableSince: now, revision: 5 },
    { to: 'PENDING', attempt: 0, note: 'resumed; occurrence 1 runs now' },
    false,
  ],
  [
    'resume RUN_ALL runs the first missed occurrence now, the others after it',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.RunAll, pausedFrom: 1 }),
    resume,
    { executionTime: at('2025-03-01T07:30:00.000Z'), nextAttemptAt: now, executionRemainder: 10 },
    { note: expect.stringMatching(/^resumed; missed occurrences run one after another .* \(RUN_ALL\)$/) },
    false,
  ],
  [
    'resume RUN_ALL runs only the latest MAX_CATCH_UP missed occurrences, the first now; the older ones are skipped',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.RunAll, pausedFrom: 1 }),
    { type: 'resumed', now, catchUp: capped(2) },
    { executionTime: at('2025-03-01T10:30:00.000Z'), nextAttemptAt: now, executionRemainder: 10, pausedFrom: null, revision: 5 },
    {
      note:
        'resumed; missed occurrences before 2025-03-01T10:30:00.000Z skipped (RUN_ALL runs the latest 2 at most); ' +
        'missed occurrences run one after another from 2025-03-01T10:30:00.000Z (RUN_ALL)',
    },
    false,
  ],
  [
    'resume RUN_ONCE runs one catch-up now, at the latest missed time',
    hourly({ ...late, status: ActionStatus.Pending, pausedFrom: 1 }),
    resume,
    { executionTime: at('2025-03-01T11:30:00.000Z'), nextAttemptAt: now, executionRemainder: 10 },
    { note: expect.stringMatching(/one catch-up runs now \(RUN_ONCE\)$/) },
    false,
  ],
  [
    'resume SKIP waits for the first time after now',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.Skip, pausedFrom: 1 }),
    resume,
    { executionTime: at('2025-03-01T12:30:00.000Z'), nextAttemptAt: at('2025-03-01T12:30:00.000Z'), executionRemainder: 10 },
    { note: expect.stringMatching(/skipped \(SKIP\)$/) },
    false,
  ],
  [
    'resume with no occurrence left before endAt completes the action',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.Skip, pausedFrom: 1, endAt: at('2025-03-01T12:10:00.000Z') }),
    resume,
    { status: ActionStatus.Completed, pausedFrom: null },
    { from: 'PENDING', to: 'COMPLETED', attempt: 0 },
    true,
  ],
  [
    'resume RUN_ONCE past endAt runs one catch-up now, at the latest missed time up to endAt',
    hourly({ ...late, status: ActionStatus.Pending, pausedFrom: 1, endAt: at('2025-03-01T09:45:00.000Z') }),
    resume,
    { status: ActionStatus.Pending, pausedFrom: null, executionTime: at('2025-03-01T09:30:00.000Z'), nextAttemptAt: now },
    { to: 'PENDING', attempt: 0, note: 'resumed; missed occurrences up to 2025-03-01T09:30:00.000Z: one catch-up runs now (RUN_ONCE)' },
    false,
  ],
  [
    'resume while the covered occurrence still runs only lifts the pause',
    hourly({ occurrence: 3, pausedFrom: 4 }),
    resume,
    { status: ActionStatus.InProgress, pausedFrom: null, revision: 4 },
    { from: 'IN_PROGRESS', to: 'IN_PROGRESS', attempt: 0, note: 'resumed' },
    false,
  ],
  [
    'skip of occurrences after the lock window skips them at once; they are no executions',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z') }),
    skip(2),
    { status: ActionStatus.Pending, occurrence: 1, executionRemainder: 10, executionTime: at('2025-03-01T15:00:00.000Z'), revision: 5, skipPending: 0 },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'skip of the next 2 occurrence(s) requested; next at 2025-03-01T15:00:00.000Z' },
    false,
  ],
  [
    'skip of the covered occurrence waits for it: the skips follow it',
    hourly({ occurrence: 2 }),
    skip(3),
    { status: ActionStatus.InProgress, skipPending: 3, revision: 4 },
    { from: 'IN_PROGRESS', to: 'IN_PROGRESS', attempt: 0, note: 'skip of the next 3 occurrence(s) requested; occurrence 2 runs first' },
    false,
  ],
  [
    'success after a skip request moves past the skipped occurrences',
    hourly({ occurrence: 2, skipPending: 2 }),
    ok(),
    { status: ActionStatus.Pending, occurrence: 3, executionRemainder: 9, executionTime: at('2025-03-01T14:59:00.000Z'), skipPending: 0, revision: 5 },
    { from: 'IN_PROGRESS', to: 'PENDING', attempt: 1 },
    false,
  ],
  [
    'a skip of 100 occurrences moves the action 100 steps on at once',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z') }),
    skip(100),
    { status: ActionStatus.Pending, occurrence: 1, executionRemainder: 10, executionTime: at('2025-03-05T17:00:00.000Z'), revision: 5 },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'skip of the next 100 occurrence(s) requested; next at 2025-03-05T17:00:00.000Z' },
    false,
  ],
  [
    'skip with no occurrence left before endAt completes the action',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z'), endAt: at('2025-03-01T14:30:00.000Z') }),
    skip(2),
    { status: ActionStatus.Completed },
    { from: 'PENDING', to: 'COMPLETED', attempt: 0, note: 'skip of the next 2 occurrence(s) requested; no occurrence is left before endAt' },
    true,
  ],
  [
    "success moves a jittered action to its next time plus that occurrence's jitter",
    hourly({ jitterMs: 60_000, jitterSeed: 7 }),
    ok(),
    {
      occurrence: 2,
      executionTime: at('2025-03-01T12:59:00.000Z'),
      nextAttemptAt: jittered({ jitterMs: 60_000, jitterSeed: 7 }, at('2025-03-01T12:59:00.000Z'), 2),
      revision: 5,
    },
    { from: 'IN_PROGRESS', to: 'PENDING', attempt: 1 },
    false,
  ],
  [
    "a new jitter moves the current occurrence's first attempt",
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z'), jitterSeed: 11 }),
    { type: 'patched', now, by: 'creator', changes: { jitterMs: 600_000 } },
    { jitterMs: 600_000, nextAttemptAt: jittered({ jitterMs: 600_000, jitterSeed: 11 }, at('2025-03-01T13:00:00.000Z'), 1), revision: 5 },
    { to: 'PENDING', note: 'updated jitterMs' },
    false,
  ],
  [
    'clearing the jitter puts the first attempt back at its time',
    hourly({
      status: ActionStatus.Pending,
      executionTime: at('2025-03-01T13:00:00.000Z'),
      nextAttemptAt: at('2025-03-01T13:04:00.000Z'),
      jitterMs: 600_000,
    }),
    { type: 'patched', now, by: 'creator', changes: { jitterMs: null } },
    { jitterMs: null, nextAttemptAt: at('2025-03-01T13:00:00.000Z'), revision: 5 },
    { to: 'PENDING', note: 'updated jitterMs' },
    false,
  ],
  [
    'a retry due on a date added to its calendar since the first attempt does not run: the next occurrence counts its attempts afresh',
    dueOnHoliday({ retryCount: 2, lastError: 'HTTP 500' }),
    onCalendarDate,
    { status: ActionStatus.Pending, occurrence: 2, retryCount: 0, executionTime: at('2025-03-01T12:59:00.000Z'), revision: 5 },
    { from: 'PENDING', to: 'PENDING', attempt: 0 },
    false,
  ],
  [
    'an occurrence on a date of its calendar does not run: the schedule moves on, its number and executions kept',
    dueOnHoliday(),
    onCalendarDate,
    {
      status: ActionStatus.Pending,
      occurrence: 2,
      executionRemainder: 10,
      executionTime: at('2025-03-01T12:59:00.000Z'),
      nextAttemptAt: at('2025-03-01T12:59:00.000Z'),
      revision: 5,
    },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: '2025-03-01T11:59:00.000Z is a date of calendar case-holidays; next at 2025-03-01T12:59:00.000Z' },
    false,
  ],
  [
    'skips asked for while a calendar date was covered follow it',
    dueOnHoliday({ skipPending: 2 }),
    onCalendarDate,
    { status: ActionStatus.Pending, occurrence: 2, executionTime: at('2025-03-01T14:59:00.000Z'), skipPending: 0, revision: 5 },
    { from: 'PENDING', to: 'PENDING', attempt: 0 },
    false,
  ],
  [
    'a pause that let a calendar date run holds the occurrence after it',
    dueOnHoliday({ pausedFrom: 3 }),
    onCalendarDate,
    { status: ActionStatus.Pending, occurrence: 2, pausedFrom: 2, executionTime: at('2025-03-01T12:59:00.000Z') },
    { from: 'PENDING', to: 'PENDING', attempt: 0 },
    false,
  ],
  [
    'a cancel waiting for a calendar date takes effect',
    dueOnHoliday(requested),
    onCalendarDate,
    { status: ActionStatus.Canceled, occurrence: 2, executionRemainder: 10, revision: 4 },
    { from: 'PENDING', to: 'CANCELED', attempt: 0, note: '2025-03-01T11:59:00.000Z is a date of calendar case-holidays; canceled as requested' },
    true,
  ],
  [
    'a calendar date with no occurrence left before endAt completes the action',
    dueOnHoliday({ endAt: at('2025-03-01T12:30:00.000Z') }),
    onCalendarDate,
    { status: ActionStatus.Completed, executionRemainder: 10 },
    { from: 'PENDING', to: 'COMPLETED', attempt: 0 },
    true,
  ],
];

/** A deletion the lifecycle allows: of any status but IN_PROGRESS (storage adds the lock window's guard). */
export const DELETION_CASES: [name: string, before: ActionState][] = [
  ActionStatus.Pending,
  ActionStatus.Completed,
  ActionStatus.Failed,
  ActionStatus.NoAction,
  ActionStatus.Canceled,
].map((status) => [`deletion of a ${status} action`, state({ status, executionTime: at('2030-01-01T00:00:00.000Z') })]);

/** What a transition tells the client: [name, state before, event, notice (null: nothing)]. */
export type NoticeCase = [name: string, before: ActionState, event: LifecycleEvent, notice: object | null];

export const NOTICE_CASES: NoticeCase[] = [
  ['a claim', state({ status: ActionStatus.Pending }), { type: 'claimed' }, null],
  ['success of the last occurrence', state(), ok(), { type: 'action.succeeded', occurrence: 1, attempt: 1, note: 'HTTP 200' }],
  ['success with occurrences to come', hourly({ occurrence: 3, retryCount: 1 }), ok(), { type: 'action.succeeded', occurrence: 3, attempt: 2 }],
  ['a failure with retries left', state(), fail(), { type: 'action.attempt_failed', occurrence: 1, attempt: 1, note: 'HTTP 500' }],
  ['the last failure', state({ retryCount: 2 }), fail(), { type: 'action.failed', attempt: 3, note: 'HTTP 500' }],
  [
    'a lost attempt with retries left',
    state({ retryCount: 1 }),
    { type: 'interrupted', retryPolicy: policy },
    { type: 'action.attempt_failed', attempt: 2, note: 'attempt 2 was interrupted (worker lost)' },
  ],
  ['a lost last attempt', state({ retryCount: 2 }), { type: 'interrupted', retryPolicy: policy }, { type: 'action.failed', attempt: 3 }],
  ['an unknown type', state({ status: ActionStatus.Pending }), { type: 'typeUnknown', note: 'no module' }, { type: 'action.no_action', attempt: 0 }],
  ["a client's change", state({ status: ActionStatus.Pending }), { type: 'patched', now, by: 'creator', changes: { metadata: { a: 1 } } }, null],
  ['a manual retry', state({ status: ActionStatus.Failed }), { type: 'retriedManually', now }, null],
  [
    'a cancel taking effect at once',
    state({ status: ActionStatus.Pending, executionTime: at('2030-01-01T00:00:00.000Z') }),
    cancel('why'),
    { type: 'action.canceled', attempt: 0, note: 'canceled: why' },
  ],
  ['a cancel request', state(), cancel(), null],
  ['a calendar date', dueOnHoliday(), onCalendarDate, null],
  ['a pause', state({ status: ActionStatus.Pending }), pause('why'), { type: 'action.paused', occurrence: 1, attempt: 0 }],
  ['a resume', state({ status: ActionStatus.Pending, pausedFrom: 1 }), resume, { type: 'action.resumed', occurrence: 1, attempt: 0 }],
  [
    'the attempt that ends a requested cancel',
    state({ ...requested, occurrence: 2 }),
    ok(),
    { type: 'action.canceled', occurrence: 2, attempt: 1, note: 'HTTP 200; canceled as requested' },
  ],
];

/** What a change tells of the occurrences it skipped, one notice per reason: [name, state before, event, notices (reason, count, times listed, first time)]. */
export type SkipNoticeCase = [
  name: string,
  before: ActionState,
  event: LifecycleEvent,
  notices: { reason: string; count: number; listed: number; first: string }[],
];

const tenMinutes = (overrides: Partial<ActionState>) =>
  state({ repeat: true, frequency: Frequency.TenMins, timezone: 'UTC', dstPolicy: DEFAULT_DST_POLICY, executionRemainder: null, ...overrides });

export const SKIP_NOTICE_CASES: SkipNoticeCase[] = [
  ['a run that skips nothing', hourly(), ok(), []],
  [
    'a skip request of 100',
    hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z') }),
    skip(100),
    [{ reason: 'request', count: 100, listed: 100, first: '2025-03-01T13:00:00.000Z' }],
  ],
  ['the run a skip request waited for', hourly({ skipPending: 3 }), ok(), [{ reason: 'request', count: 3, listed: 3, first: '2025-03-01T12:59:00.000Z' }]],
  [
    'SKIP after two days of ten-minute occurrences missed',
    tenMinutes({ executionTime: at('2025-02-27T12:00:00.000Z'), misfirePolicy: MisfirePolicy.Skip }),
    ok(),
    [{ reason: 'misfire', count: 288, listed: 100, first: '2025-02-27T12:10:00.000Z' }],
  ],
  [
    'RUN_ALL after two days of ten-minute occurrences missed, catching up on the latest 100',
    tenMinutes({ executionTime: at('2025-02-27T12:00:00.000Z'), misfirePolicy: MisfirePolicy.RunAll }),
    ok(),
    [{ reason: 'misfire', count: 188, listed: 100, first: '2025-02-27T12:10:00.000Z' }],
  ],
  [
    'a resume under SKIP',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.Skip, pausedFrom: 1 }),
    resume,
    [{ reason: 'misfire', count: 5, listed: 5, first: '2025-03-01T07:30:00.000Z' }],
  ],
  [
    'a resume under RUN_ALL past its cap',
    hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.RunAll, pausedFrom: 1 }),
    { type: 'resumed', now, catchUp: capped(2) },
    [{ reason: 'misfire', count: 3, listed: 3, first: '2025-03-01T07:30:00.000Z' }],
  ],
  [
    'a calendar date followed by the skips asked for while it was covered',
    dueOnHoliday({ skipPending: 2 }),
    onCalendarDate,
    [
      { reason: 'request', count: 2, listed: 2, first: '2025-03-01T12:59:00.000Z' },
      { reason: 'calendar', count: 1, listed: 1, first: '2025-03-01T11:59:00.000Z' },
    ],
  ],
];
