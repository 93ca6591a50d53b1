// The lifecycle's table: each case a state, an event, and what the transition must be. The
// lifecycle's spec checks transition() against it; test/lifecycle-store.e2e-spec.ts runs every
// case through the store on Postgres, so what is persisted cannot drift from what was decided.
import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { ActionState } from './action-state';
import { LifecycleEvent } from './lifecycle';
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
    revision: 4,
    ...overrides,
  };
}
export const hourly = (overrides: Partial<ActionState> = {}) =>
  state({ repeat: true, frequency: Frequency.Hourly, timezone: 'UTC', executionRemainder: 10, ...overrides });
export const late = { executionTime: at('2025-03-01T07:30:00.000Z') };
export const ok = (note: string | null = 'HTTP 200'): LifecycleEvent => ({ type: 'succeeded', now, note });
export const fail = (permanent = false): LifecycleEvent => ({ type: 'failed', now, error: 'HTTP 500', permanent, retryPolicy: policy });
export const LOCK_WINDOW_MS = 120_000;
export const cancel = (note: string | null = null): LifecycleEvent => ({ type: 'canceled', now, note, lockWindowMs: LOCK_WINDOW_MS });
export const requested = { cancelRequestedAt: at('2025-03-01T11:59:30.000Z') };

/** A transition the lifecycle makes: [name, state before, event, fields after, history entry, finished]. */
export type TransitionCase = [name: string, before: ActionState, event: LifecycleEvent, after: Partial<ActionState>, entry: object, finished: boolean];

export const TRANSITION_CASES: TransitionCase[] = [
  [
    'a claim starts the first attempt',
    state({ status: ActionStatus.Pending }),
    { type: 'claimed' },
    { status: ActionStatus.InProgress, retryCount: 0, revision: 4 },
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
      revision: 5,
    },
    { from: 'IN_PROGRESS', to: 'PENDING', occurrence: 1, attempt: 1 },
    false,
  ],
  [
    'RUN_ALL runs the first missed occurrence next',
    hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll }),
    ok(null),
    { executionTime: at('2025-03-01T08:30:00.000Z') },
    { note: 'missed occurrence 2025-03-01T08:30:00.000Z runs now (RUN_ALL)' },
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
    { status: ActionStatus.Pending, retryCount: 1, lastError: 'HTTP 500', occurrence: 1, nextAttemptAt: new Date(now.getTime() + 1000), revision: 5 },
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
    { status: ActionStatus.Pending, retryCount: 0, lastError: 'x', nextAttemptAt: now, revision: 5, occurrence: 1 },
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
    'a new executionTime moves the due time and anchor and bumps the revision',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', by: 'creator', changes: { executionTime: at('2030-01-31T00:00:00.000Z') } },
    {
      executionTime: at('2030-01-31T00:00:00.000Z'),
      nextAttemptAt: at('2030-01-31T00:00:00.000Z'),
      scheduleAnchor: at('2030-01-31T00:00:00.000Z'),
      revision: 5,
    },
    { from: 'PENDING', to: 'PENDING', attempt: 0, note: 'updated executionTime' },
    false,
  ],
  [
    'other changes keep the revision',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', by: 'creator', changes: { metadata: { a: 1 }, data: { b: 2 } } },
    { metadata: { a: 1 }, data: { b: 2 }, revision: 4 },
    { note: 'updated metadata, data' },
    false,
  ],
  [
    'repeat: false clears frequency and remainder',
    hourly({ status: ActionStatus.Pending }),
    { type: 'patched', by: 'creator', changes: { repeat: false } },
    { repeat: false, frequency: null, executionRemainder: null },
    { note: 'updated repeat' },
    false,
  ],
  [
    'a cron action without a remainder runs on forever: the next cron time in its zone',
    state({ repeat: true, cron: '0 9 * * MON-FRI', timezone: 'Europe/Berlin', executionTime: at('2027-03-26T08:00:00.000Z') }),
    { type: 'succeeded', now: at('2027-03-26T08:00:01.000Z'), note: null },
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
    { type: 'patched', by: 'creator', changes: { cron: '0 12 * * *' } },
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
    { type: 'patched', by: 'creator', changes: { endAt: null, retryPolicy: null } },
    { endAt: null, retryPolicy: null, revision: 4 },
    {},
    false,
  ],
  [
    'repeat: true keeps the stored frequency and remainder',
    hourly({ status: ActionStatus.Pending, repeat: false }),
    { type: 'patched', by: 'creator', changes: { repeat: true } },
    { repeat: true, frequency: Frequency.Hourly, executionRemainder: 10 },
    {},
    false,
  ],
  [
    'a patch of data is signed by the key that made it from now on',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', by: 'editor', changes: { data: { b: 2 } } },
    { dataKeyId: 'editor', callbackKeyId: 'creator' },
    { note: 'updated data' },
    false,
  ],
  [
    'a patch of the callback URL only moves its own key',
    state({ status: ActionStatus.Pending }),
    { type: 'patched', by: 'editor', changes: { callbackUrl: 'https://example.com/cb', metadata: {} } },
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
  ["a client's change", state({ status: ActionStatus.Pending }), { type: 'patched', by: 'creator', changes: { metadata: { a: 1 } } }, null],
  ['a manual retry', state({ status: ActionStatus.Failed }), { type: 'retriedManually', now }, null],
  [
    'a cancel taking effect at once',
    state({ status: ActionStatus.Pending, executionTime: at('2030-01-01T00:00:00.000Z') }),
    cancel('why'),
    { type: 'action.canceled', attempt: 0, note: 'canceled: why' },
  ],
  ['a cancel request', state(), cancel(), null],
  [
    'the attempt that ends a requested cancel',
    state({ ...requested, occurrence: 2 }),
    ok(),
    { type: 'action.canceled', occurrence: 2, attempt: 1, note: 'HTTP 200; canceled as requested' },
  ],
];
