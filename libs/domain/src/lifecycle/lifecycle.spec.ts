import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { ActionState } from './action-state';
import { ActionChanges, LifecycleEvent, transition } from './lifecycle';
import { InvalidChangeError, TransitionRefusedError } from './lifecycle.errors';
import { newActionState } from './new-action-state';
import { upcomingOccurrences } from './upcoming-occurrences';
import { RetryPolicy } from './retry-policy';

const now = new Date('2025-03-01T12:00:00.000Z');
const at = (iso: string) => new Date(iso);
const policy: RetryPolicy = { maxRetries: 2, backoff: { kind: 'fixed-list', delaysMs: [1000, 5000] } };

function state(overrides: Partial<ActionState> = {}): ActionState {
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
const hourly = (overrides: Partial<ActionState> = {}) =>
  state({ repeat: true, frequency: Frequency.Hourly, timezone: 'UTC', executionRemainder: 10, ...overrides });
const late = { executionTime: at('2025-03-01T07:30:00.000Z') };
const ok = (note: string | null = 'HTTP 200'): LifecycleEvent => ({ type: 'succeeded', now, note });
const fail = (permanent = false): LifecycleEvent => ({ type: 'failed', now, error: 'HTTP 500', permanent, retryPolicy: policy });
const LOCK_WINDOW_MS = 120_000;
const cancel = (note: string | null = null): LifecycleEvent => ({ type: 'canceled', now, note, lockWindowMs: LOCK_WINDOW_MS });
const requested = { cancelRequestedAt: at('2025-03-01T11:59:30.000Z') };

describe('the action lifecycle', () => {
  // [name, state before, event, expected fields after, expected history entry, finished]
  it.each<[string, ActionState, LifecycleEvent, Partial<ActionState>, object, boolean]>([
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
  ])('%s', (_name, before, event, after, entry, finished) => {
    const result = transition(before, event);
    expect(result.after).toMatchObject(after);
    expect(result.history).toHaveLength(1);
    expect(result.history[0]).toMatchObject(entry);
    expect(result.finished).toBe(finished);
  });

  // [name, state before, event, expected notice (null: the client is told nothing)]
  it.each<[string, ActionState, LifecycleEvent, object | null]>([
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
  ])('notice of %s', (_name, before, event, notice) => {
    const result = transition(before, event);
    if (notice === null) expect(result.notice).toBeNull();
    else expect(result.notice).toMatchObject(notice);
  });

  it.each<[string, ActionState, LifecycleEvent]>([
    ['success of an attempt that is not running', state({ status: ActionStatus.Pending }), ok()],
    ['failure of a finished action', state({ status: ActionStatus.Completed }), fail()],
    ['a patch of a running action', state(), { type: 'patched', by: 'creator', changes: {} }],
    ['a patch of a finished action', state({ status: ActionStatus.Failed }), { type: 'patched', by: 'creator', changes: {} }],
    ['a manual retry of a PENDING action', state({ status: ActionStatus.Pending }), { type: 'retriedManually', now }],
    ['a manual retry of a COMPLETED action', state({ status: ActionStatus.Completed }), { type: 'retriedManually', now }],
    ['a manual retry of a CANCELED action', state({ status: ActionStatus.Canceled }), { type: 'retriedManually', now }],
    ...[ActionStatus.Completed, ActionStatus.Failed, ActionStatus.NoAction, ActionStatus.Canceled].map((status): [string, ActionState, LifecycleEvent] => [
      `a cancel of a ${status} action`,
      state({ status }),
      cancel(),
    ]),
  ])('refuses %s', (_name, before, event) => {
    expect(() => transition(before, event)).toThrow(TransitionRefusedError);
  });

  it.each<[string, ActionState, ActionChanges]>([
    ['repeat: true without a frequency or cron', state({ status: ActionStatus.Pending }), { repeat: true }],
    ['a frequency without a remainder', state({ status: ActionStatus.Pending }), { repeat: true, frequency: Frequency.Daily }],
    ['cron without repeat', state({ status: ActionStatus.Pending }), { cron: '* * * * *' }],
    ['an invalid cron', hourly({ status: ActionStatus.Pending }), { cron: '61 * * * *' }],
    ['a cron that never matches', hourly({ status: ActionStatus.Pending }), { cron: '0 0 30 2 *' }],
    ['an unknown zone', hourly({ status: ActionStatus.Pending }), { timezone: 'Mars/Olympus' }],
    ['endAt before the occurrence', hourly({ status: ActionStatus.Pending }), { endAt: at('2000-01-01T00:00:00.000Z') }],
  ])('refuses a change leaving %s', (_name, before, changes) => {
    expect(() => transition(before, { type: 'patched', by: 'creator', changes })).toThrow(InvalidChangeError);
  });

  it.each<[string, ActionState, LifecycleEvent]>([
    ['an empty patch', state({ status: ActionStatus.Pending }), { type: 'patched', by: 'creator', changes: {} }],
    ['a patch of only absent fields', state({ status: ActionStatus.Pending }), { type: 'patched', by: 'creator', changes: { data: undefined } }],
    ['a cancel already asked for', state(requested), cancel()],
  ])('changes and writes nothing for %s', (_name, before, event) => {
    const result = transition(before, event);
    expect(result.history).toEqual([]);
    expect(result.after).toEqual(before);
    expect(result.notice).toBeNull();
  });

  it('stores notes without NUL bytes and cut to size', () => {
    const { after, history } = transition(state(), { type: 'failed', now, error: `bad\u0000${'x'.repeat(5000)}`, permanent: true, retryPolicy: policy });
    expect(after.lastError).not.toContain('\u0000');
    expect(after.lastError!.length).toBeLessThanOrEqual(2001);
    expect(history[0].note).toBe(after.lastError);
    expect(transition(state(), ok('a\u0000b')).history[0].note).toBe('a\uFFFDb');
  });

  it('creates a PENDING first occurrence; frequency and remainder only when repeating', () => {
    const request = {
      executionTime: now,
      data: {},
      metadata: {},
      repeat: false,
      frequency: Frequency.Daily,
      cron: null,
      timezone: null,
      executionRemainder: 5,
      endAt: null,
      misfirePolicy: MisfirePolicy.RunOnce,
      retryPolicy: null,
      callbackUrl: null,
    };
    const { state: created, history } = newActionState(request, 'creator', now);
    expect(created).toMatchObject({
      status: 'PENDING',
      occurrence: 1,
      retryCount: 0,
      revision: 0,
      nextAttemptAt: now,
      scheduleAnchor: now,
      frequency: null,
      executionRemainder: null,
    });
    expect(history).toEqual({ from: null, to: 'PENDING', occurrence: 1, attempt: 0, note: 'created' });
    expect(newActionState({ ...request, repeat: true }, 'creator', now).state).toMatchObject({
      frequency: 'DAILY',
      executionRemainder: 5,
      timezone: 'UTC',
    });
  });
});

describe('upcoming occurrences', () => {
  const pending = (overrides: Partial<ActionState>) => state({ status: ActionStatus.Pending, ...overrides });

  it.each<[string, ActionState, number, string[]]>([
    ['a one-off action has its one', pending({ executionTime: at('2030-01-01T00:00:00.000Z') }), 10, ['2030-01-01T00:00:00.000Z']],
    ['a finished action has none', state({ status: ActionStatus.Completed }), 10, []],
    [
      'executionRemainder bounds them',
      pending({ repeat: true, frequency: Frequency.Daily, timezone: 'UTC', executionRemainder: 2, executionTime: at('2030-01-01T00:00:00.000Z') }),
      10,
      ['2030-01-01T00:00:00.000Z', '2030-01-02T00:00:00.000Z'],
    ],
    [
      'endAt bounds them, inclusive',
      pending({ repeat: true, cron: '0 0 * * *', timezone: 'UTC', endAt: at('2030-01-03T00:00:00.000Z'), executionTime: at('2030-01-01T00:00:00.000Z') }),
      10,
      ['2030-01-01T00:00:00.000Z', '2030-01-02T00:00:00.000Z', '2030-01-03T00:00:00.000Z'],
    ],
    [
      'count bounds an endless cron',
      pending({ repeat: true, cron: '0 9 * * MON-FRI', timezone: 'Europe/Berlin', executionTime: at('2027-03-26T08:00:00.000Z') }),
      2,
      ['2027-03-26T08:00:00.000Z', '2027-03-29T07:00:00.000Z'],
    ],
  ])('%s', (_name, action, count, expected) => {
    expect(upcomingOccurrences(action, count).map((d) => d.toISOString())).toEqual(expected);
  });
});
