import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { ActionChanges, ActionState, LifecycleEvent, transition } from '.';
import { InvalidChangeError, TransitionRefusedError } from './lifecycle.errors';
import { newActionState } from './new-action-state';
import { upcomingOccurrences } from './upcoming-occurrences';
import {
  DELETION_CASES,
  NOTICE_CASES,
  NoticeCase,
  SKIP_NOTICE_CASES,
  SkipNoticeCase,
  TRANSITION_CASES,
  TransitionCase,
  at,
  cancel,
  capped,
  catchUp,
  fail,
  failRetryingAfter,
  hourly,
  late,
  now,
  ok,
  pause,
  policy,
  requested,
  resume,
  skip,
  state,
} from './lifecycle.cases';

describe('the action lifecycle', () => {
  it.each<TransitionCase>(TRANSITION_CASES)('%s', (_name, before, event, after, entry, finished) => {
    const result = transition(before, event);
    expect(result.after).toMatchObject(after);
    expect(result.history).toHaveLength(1);
    expect(result.history[0]).toMatchObject(entry);
    expect(result.finished).toBe(finished);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a retry delay of %s ms', (retryAfterMs) => {
    expect(() => transition(state(), failRetryingAfter(retryAfterMs))).toThrow(RangeError);
  });

  it.each<[string, ActionState, LifecycleEvent]>([
    ['pausing a paused action', state({ status: ActionStatus.Pending, pausedFrom: 1 }), pause()],
    ['resuming an action that is not paused', state({ status: ActionStatus.Pending }), resume],
  ])('%s changes nothing', (_name, before, event) => {
    expect(transition(before, event)).toMatchObject({ after: before, history: [], notice: null });
  });

  it.each<[string, ActionState, LifecycleEvent, string[]]>([
    [
      'a skip request after the lock window',
      hourly({ status: ActionStatus.Pending, executionTime: at('2025-03-01T13:00:00.000Z') }),
      skip(2),
      ['request 13:00', 'request 14:00'],
    ],
    ['success after a skip request', hourly({ skipPending: 2 }), ok(), ['request 12:59', 'request 13:59']],
    ['RUN_ONCE catching up after an outage', hourly(late), ok(), ['misfire 08:30', 'misfire 09:30', 'misfire 10:30']],
    [
      'SKIP catching up after an outage',
      hourly({ ...late, misfirePolicy: MisfirePolicy.Skip }),
      ok(),
      ['misfire 08:30', 'misfire 09:30', 'misfire 10:30', 'misfire 11:30'],
    ],
    ['RUN_ALL catching up after an outage', hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll }), ok(), []],
    [
      'RUN_ALL catching up after an outage longer than its cap',
      hourly({ ...late, misfirePolicy: MisfirePolicy.RunAll }),
      ok(null, capped(1)),
      ['misfire 08:30', 'misfire 09:30', 'misfire 10:30'],
    ],
    [
      'a daily 02:30 in Berlin across the night the clocks skip it, under gap: skip',
      state({
        repeat: true,
        frequency: Frequency.Daily,
        timezone: 'Europe/Berlin',
        executionRemainder: 5,
        executionTime: at('2027-03-27T01:30:00.000Z'),
        scheduleAnchor: at('2027-03-27T01:30:00.000Z'),
        dstPolicy: { gap: 'skip', overlap: 'first' },
      }),
      { type: 'succeeded', now: at('2027-03-27T01:31:00.000Z'), note: null, catchUp },
      ['dst 01:00'],
    ],
    [
      'a resume with SKIP',
      hourly({ ...late, status: ActionStatus.Pending, misfirePolicy: MisfirePolicy.Skip, pausedFrom: 1 }),
      resume,
      ['misfire 07:30', 'misfire 08:30', 'misfire 09:30', 'misfire 10:30', 'misfire 11:30'],
    ],
  ])('lists every occurrence that does not run: %s', (_name, before, event, skipped) => {
    const listed = transition(before, event).skipped.map((s) => `${s.reason} ${s.time.toISOString().slice(11, 16)}`);
    expect(listed).toEqual(skipped);
  });

  it('a cancel request that ended in NO_ACTION does not outlive a manual retry: the retry runs to its end, and a new cancel is heard', () => {
    const requestedThenNoAction = [cancel(), { type: 'typeUnknown', note: 'no module' } as LifecycleEvent].reduce(
      (current, event) => transition(current, event).after,
      state({ status: ActionStatus.Pending }),
    );
    expect(requestedThenNoAction).toMatchObject({ status: ActionStatus.NoAction, cancelRequestedAt: now });
    const retried = transition(requestedThenNoAction, { type: 'retriedManually', now }).after;
    const ran = transition(transition(retried, { type: 'claimed' }).after, ok()).after;
    expect(ran.status).toBe(ActionStatus.Completed);
    const canceledAgain = transition(retried, cancel('again'));
    expect(canceledAgain.history).toHaveLength(1);
    expect(transition(transition(canceledAgain.after, { type: 'claimed' }).after, ok()).after.status).toBe(ActionStatus.Canceled);
  });

  it('lists at most 100 skipped occurrences one by one, and the rest in one entry', () => {
    const longOutage = state({
      status: ActionStatus.InProgress,
      repeat: true,
      frequency: Frequency.TenMins,
      timezone: 'UTC',
      executionRemainder: null,
      cron: null,
    });
    const { skipped } = transition({ ...longOutage, executionTime: at('2025-02-27T12:00:00.000Z'), misfirePolicy: MisfirePolicy.Skip }, ok());
    expect(skipped).toHaveLength(101);
    expect(skipped.slice(0, 100).every((s) => s.count === 1)).toBe(true);
    // Two days of ten-minute occurrences after the one that ran, up to now: 288 missed in all.
    expect(skipped[100]).toMatchObject({ count: 188, reason: 'misfire', time: at('2025-02-28T04:50:00.000Z') });
  });

  it.each<SkipNoticeCase>(SKIP_NOTICE_CASES)('tells of what %s skips in one notice per reason, however many', (_name, before, event, expected) => {
    const { skipped, skipNotices } = transition(before, event);
    expect(skipNotices.map(({ reason, count, times }) => ({ reason, count, listed: times.length, first: times[0].toISOString() }))).toEqual(expected);
    for (const notice of skipNotices) {
      // The earliest skipped times, in order: each listed history entry stands for one of them.
      const ofReason = skipped.filter((skip) => skip.reason === notice.reason);
      expect(notice.times).toEqual(ofReason.slice(0, 100).map((skip) => skip.time));
      expect(notice.note).toBe(
        notice.count === 1
          ? `skipped: ${notice.reason}, ${notice.times[0].toISOString()}`
          : `skipped: ${notice.reason}, ${notice.count} occurrences from ${notice.times[0].toISOString()} on`,
      );
    }
  });

  it('says "at least" when an outage was too long to count every skipped occurrence', () => {
    const longOutage = state({ repeat: true, frequency: Frequency.TenMins, timezone: 'UTC', executionRemainder: null, misfirePolicy: MisfirePolicy.Skip });
    const { skipNotices } = transition({ ...longOutage, executionTime: at('2024-03-01T12:00:00.000Z') }, ok());
    expect(skipNotices).toHaveLength(1);
    expect(skipNotices[0]).toMatchObject({ reason: 'misfire', count: 10_000 });
    expect(skipNotices[0].note).toBe('skipped: misfire, at least 10000 occurrences from 2024-03-01T12:10:00.000Z on');
  });

  it.each(DELETION_CASES)('%s: the row goes, with nothing written or told', (_name, before) => {
    expect(transition(before, { type: 'deleted' })).toEqual({
      before,
      after: before,
      event: 'deleted',
      history: [],
      finished: false,
      deleted: true,
      skipped: [],
      skipNotices: [],
      notice: null,
    });
  });

  it.each<NoticeCase>(NOTICE_CASES)('notice of %s', (_name, before, event, notice) => {
    const result = transition(before, event);
    if (notice === null) expect(result.notice).toBeNull();
    else expect(result.notice).toMatchObject(notice);
  });

  it.each<[string, ActionState, LifecycleEvent]>([
    ['success of an attempt that is not running', state({ status: ActionStatus.Pending }), ok()],
    ['failure of a finished action', state({ status: ActionStatus.Completed }), fail()],
    ['a patch of a running action', state(), { type: 'patched', now, by: 'creator', changes: {} }],
    ['a patch of a finished action', state({ status: ActionStatus.Failed }), { type: 'patched', now, by: 'creator', changes: {} }],
    ['a manual retry of a PENDING action', state({ status: ActionStatus.Pending }), { type: 'retriedManually', now }],
    ['a manual retry of a COMPLETED action', state({ status: ActionStatus.Completed }), { type: 'retriedManually', now }],
    ['a manual retry of a CANCELED action', state({ status: ActionStatus.Canceled }), { type: 'retriedManually', now }],
    ['a claim of a finished action', state({ status: ActionStatus.Completed }), { type: 'claimed' }],
    ['a deletion of a running action', state(), { type: 'deleted' }],
    ['a skip of a one-off action', state({ status: ActionStatus.Pending }), skip()],
    ['a skip of a finished repeating action', hourly({ status: ActionStatus.Completed }), skip()],
    ...[ActionStatus.Completed, ActionStatus.Failed, ActionStatus.NoAction, ActionStatus.Canceled].flatMap(
      (status): [string, ActionState, LifecycleEvent][] => [
        [`a pause of a ${status} action`, state({ status }), pause()],
        [`a resume of a ${status} action`, state({ status, pausedFrom: 1 }), resume],
      ],
    ),
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
    expect(() => transition(before, { type: 'patched', now, by: 'creator', changes })).toThrow(InvalidChangeError);
  });

  it.each<[string, ActionState, LifecycleEvent]>([
    ['an empty patch', state({ status: ActionStatus.Pending }), { type: 'patched', now, by: 'creator', changes: {} }],
    ['a patch of only absent fields', state({ status: ActionStatus.Pending }), { type: 'patched', now, by: 'creator', changes: { data: undefined } }],
    ['a cancel already asked for', state(requested), cancel()],
    ['a takeover (the claim of a running action: its lost attempt is recorded next)', state(), { type: 'claimed' }],
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
      jitterMs: null,
      dstPolicy: null,
      calendar: null,
    };
    const { state: created, history } = newActionState(request, 'creator', now, 7);
    expect(created).toMatchObject({
      status: 'PENDING',
      occurrence: 1,
      retryCount: 0,
      revision: 0,
      nextAttemptAt: now,
      runnableSince: now,
      scheduleAnchor: now,
      frequency: null,
      executionRemainder: null,
    });
    expect(history).toEqual({ from: null, to: 'PENDING', occurrence: 1, attempt: 0, note: 'created' });
    // Dated an hour back, it is due then but runnable only from its creation: its firing lag counts from now.
    const past = new Date(now.getTime() - 3_600_000);
    expect(newActionState({ ...request, executionTime: past }, 'creator', now, 7).state).toMatchObject({ nextAttemptAt: past, runnableSince: now });
    expect(newActionState({ ...request, repeat: true }, 'creator', now, 7).state).toMatchObject({
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
