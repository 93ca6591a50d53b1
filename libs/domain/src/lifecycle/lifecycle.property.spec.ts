import fc from 'fast-check';
import { ActionStatus, Frequency, MisfirePolicy, TERMINAL_STATUSES } from '../action-vocabulary';
import { occurrencesFrom } from '../schedule/schedule';
import { ActionChanges, ActionRequest, ActionRetryPolicy, ActionState, CatchUpPolicy, InvalidChangeError, LifecycleEvent } from '.';
import { RetryOverrides, RetryPolicy, Transition, TransitionRefusedError, effectiveRetryPolicy, newActionState } from '.';
import { scheduleOf, transition, unlockedGuard } from '.';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const LOCK_WINDOW_MS = 2 * MINUTE;
/** A small cap, so that waits of hours make RUN_ALL leave missed occurrences out. */
const catchUp: CatchUpPolicy = { intervalMs: MINUTE, max: 2 };
const STATUSES = Object.values(ActionStatus);
const isTerminal = (status: ActionStatus) => TERMINAL_STATUSES.includes(status);

/** What the lifecycle is run under: the global retry policy and the action type's overrides. */
interface Setting {
  global: RetryPolicy;
  type: RetryOverrides;
}

const actionRetryPolicy: fc.Arbitrary<ActionRetryPolicy> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 3 }),
  backoff: fc.integer({ min: 1, max: 30 }).map((minutes) => ({ type: 'fixed' as const, delayMs: minutes * MINUTE })),
});

const setting: fc.Arbitrary<Setting> = fc.record({
  global: fc.record({
    maxRetries: fc.integer({ min: 0, max: 3 }),
    backoff: fc.constant({ kind: 'fixed-list' as const, delaysMs: [MINUTE, 5 * MINUTE] }),
  }),
  type: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }).map((maxRetries) => (maxRetries === undefined ? {} : { maxRetries })),
});

/** A create request the API would accept: one-off, every N (with a count), or cron (with or without one). */
const request: fc.Arbitrary<ActionRequest> = fc
  .record({
    offsetMinutes: fc.integer({ min: -60, max: 180 }),
    schedule: fc.oneof(
      fc.constant({ repeat: false, frequency: null, cron: null, executionRemainder: null }),
      fc.record({
        repeat: fc.constant(true),
        frequency: fc.constantFrom(Frequency.TenMins, Frequency.Hourly, Frequency.Daily),
        cron: fc.constant(null),
        executionRemainder: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({
        repeat: fc.constant(true),
        frequency: fc.constant(null),
        cron: fc.constantFrom('*/15 * * * *', '0 * * * *', '30 9 * * MON-FRI'),
        executionRemainder: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      }),
    ),
    endAfterHours: fc.option(fc.integer({ min: 1, max: 48 }), { nil: null }),
    misfirePolicy: fc.constantFrom(...Object.values(MisfirePolicy)),
    retryPolicy: fc.option(actionRetryPolicy, { nil: null }),
    jitterMs: fc.option(fc.integer({ min: 0, max: 10 * MINUTE }), { nil: null }),
  })
  .map(({ offsetMinutes, schedule, endAfterHours, misfirePolicy, retryPolicy, jitterMs }) => {
    const executionTime = new Date(START + offsetMinutes * MINUTE);
    return {
      executionTime,
      data: {},
      metadata: {},
      ...schedule,
      timezone: null,
      endAt: endAfterHours === null ? null : new Date(executionTime.getTime() + endAfterHours * HOUR),
      misfirePolicy,
      retryPolicy,
      callbackUrl: null,
      jitterMs,
      dstPolicy: null,
      calendar: null,
    };
  });

/** A client's change, its executionTime relative to the clock when it is sent. */
const change = fc.record(
  {
    executionInMinutes: fc.integer({ min: -10, max: 600 }),
    data: fc.integer().map((n) => ({ n })),
    retryPolicy: fc.option(actionRetryPolicy, { nil: null }),
    repeat: fc.boolean(),
    frequency: fc.constantFrom(Frequency.Hourly, Frequency.Daily),
    executionRemainder: fc.integer({ min: 1, max: 4 }),
    endAt: fc.constant(null),
    misfirePolicy: fc.constantFrom(...Object.values(MisfirePolicy)),
  },
  { requiredKeys: [] },
);

/** One thing that can happen to an action: time passing, a worker's claim, or a lifecycle event. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3 * HOUR }) }),
  { arbitrary: fc.constant({ kind: 'claim' as const }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('succeeded' as const), note: fc.option(fc.constant('HTTP 200'), { nil: null }) }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('failed' as const),
      permanent: fc.oneof({ arbitrary: fc.constant(true), weight: 1 }, { arbitrary: fc.constant(false), weight: 4 }),
    }),
    weight: 4,
  },
  fc.constant({ kind: 'interrupted' as const }),
  fc.constant({ kind: 'typeUnknown' as const }),
  {
    arbitrary: fc.record({ kind: fc.constant('patched' as const), changes: change, by: fc.constantFrom('creator', 'editor', null) }),
    weight: 2,
  },
  fc.record({ kind: fc.constant('canceled' as const), note: fc.option(fc.constant('not needed'), { nil: null }) }),
  fc.constant({ kind: 'retriedManually' as const }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;
type EventStep = Exclude<Step, { kind: 'wait' | 'claim' }>;

/** The world around one action: the clock and the attempt a worker holds (null: none runs). */
interface World {
  now: number;
  state: ActionState;
  running: number | null;
}

function eventOf(s: EventStep, world: World, policy: RetryPolicy): LifecycleEvent {
  const now = new Date(world.now);
  switch (s.kind) {
    case 'succeeded':
      return { type: 'succeeded', now, note: s.note, catchUp };
    case 'failed':
      return { type: 'failed', now, error: 'HTTP 500', permanent: s.permanent, retryPolicy: policy, random: () => 0.5 };
    case 'interrupted':
      return { type: 'interrupted', retryPolicy: policy };
    case 'typeUnknown':
      return { type: 'typeUnknown', note: 'No fulfillment module for action type GONE' };
    case 'patched': {
      const { executionInMinutes, ...rest } = s.changes;
      const changes: ActionChanges = { ...rest };
      if (executionInMinutes !== undefined) changes.executionTime = new Date(world.now + executionInMinutes * MINUTE);
      return { type: 'patched', now, changes, by: s.by };
    }
    case 'canceled':
      return { type: 'canceled', now, note: s.note, lockWindowMs: LOCK_WINDOW_MS };
    case 'retriedManually':
      return { type: 'retriedManually', now };
  }
}

/** The lifecycle's answer, or null where it refuses the event (as the API and the worker would). */
function applied(world: World, event: LifecycleEvent): Transition | null {
  try {
    // The API checks the lock window before it applies a client's change.
    if (event.type === 'patched') unlockedGuard({ ...world.state, id: 'a1' }, 'changed', new Date(world.now), LOCK_WINDOW_MS);
    return transition(world.state, event);
  } catch (error) {
    if (error instanceof TransitionRefusedError || error instanceof InvalidChangeError) return null;
    throw error;
  }
}

/** The attempt number the history gives the entry an applied event writes (0: not an attempt). */
function expectedAttempt(event: LifecycleEvent, before: ActionState, after: ActionState): number {
  const runningAttempt = before.retryCount + 1;
  switch (event.type) {
    case 'claimed':
    case 'succeeded':
    case 'failed':
      return runningAttempt;
    case 'interrupted':
      // The lost attempt counts as failed; when it is retried, the entry starts the next one.
      return after.status === ActionStatus.InProgress ? runningAttempt + 1 : runningAttempt;
    case 'typeUnknown':
      return before.status === ActionStatus.InProgress ? runningAttempt : 0;
    default:
      return 0;
  }
}

/** Checks one applied event against what lifecycle.ts and action-state.ts document. */
function checkTransition(event: LifecycleEvent, t: Transition, maxRetries: number): void {
  const { before, after } = t;
  expect(STATUSES).toContain(after.status);

  // A finished action leaves its status only by a manual retry of FAILED or NO_ACTION, back to PENDING.
  if (isTerminal(before.status)) {
    expect(event.type).toBe('retriedManually');
    expect([ActionStatus.Failed, ActionStatus.NoAction]).toContain(before.status);
    expect(after.status).toBe(ActionStatus.Pending);
  }
  // Only a claim starts an attempt: no other event moves an action into IN_PROGRESS.
  if (after.status === ActionStatus.InProgress && event.type !== 'claimed') expect(before.status).toBe(ActionStatus.InProgress);

  // The occurrence never goes back; it moves one step, only on success, and starts with no failed attempts.
  expect(after.occurrence).toBeGreaterThanOrEqual(before.occurrence);
  if (after.occurrence !== before.occurrence) {
    expect(event.type).toBe('succeeded');
    expect(after.occurrence).toBe(before.occurrence + 1);
    expect(after.retryCount).toBe(0);
    expect(after.status).toBe(ActionStatus.Pending);
  }
  // A failure counts one attempt, and is retried only within the policy in force at that failure
  // (so under one policy FAILED records 1 + maxRetries attempts). Lowering the policy later keeps a
  // retry already granted: the next failure then ends the action.
  expect(after.retryCount).toBeGreaterThanOrEqual(0);
  if (after.retryCount > before.retryCount) {
    expect(after.retryCount).toBe(before.retryCount + 1);
    if (!isTerminal(after.status)) expect(after.retryCount).toBeLessThanOrEqual(maxRetries);
    if (before.retryCount === maxRetries) expect(isTerminal(after.status)).toBe(true);
  }

  // A new due time always bumps the revision, by one, so a job queued for the old one cannot claim the action.
  if (after.nextAttemptAt.getTime() !== before.nextAttemptAt.getTime()) expect(after.revision).toBe(before.revision + 1);
  expect([before.revision, before.revision + 1]).toContain(after.revision);

  // History: one entry for every event that changes something, none only for the documented no-ops.
  expect(t.history.length).toBeLessThanOrEqual(1);
  if (t.history.length === 0) {
    expect(after).toEqual(before);
    const repeatedCancel = event.type === 'canceled' && before.cancelRequestedAt !== null;
    const emptyPatch = event.type === 'patched' && Object.values(event.changes).every((value) => value === undefined);
    expect(repeatedCancel || emptyPatch).toBe(true);
    expect(t.finished).toBe(false);
    expect(t.notice).toBeNull();
    return;
  }
  // However many occurrences one change skips, it tells of them once per reason, counting them all.
  const total = (skips: readonly { count: number }[]) => skips.reduce((sum, skip) => sum + skip.count, 0);
  expect(new Set(t.skipNotices.map((notice) => notice.reason)).size).toBe(t.skipNotices.length);
  expect(total(t.skipNotices)).toBe(total(t.skipped));
  // A RUN_ALL catch-up starts the policy's interval after the run before it at the earliest, and is one of the latest `max` missed times.
  if (
    event.type === 'succeeded' &&
    after.status === ActionStatus.Pending &&
    after.executionTime <= event.now &&
    before.misfirePolicy === MisfirePolicy.RunAll
  ) {
    expect(after.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(event.now.getTime() + catchUp.intervalMs);
    const runsBy = after.endAt && after.endAt < event.now ? after.endAt : event.now;
    const missed = occurrencesFrom(scheduleOf(after)!, after.executionTime, catchUp.max + 1, (time) => time <= runsBy);
    expect(missed.length).toBeLessThanOrEqual(catchUp.max);
  }
  expect(t.history[0]).toMatchObject({
    from: before.status,
    to: after.status,
    occurrence: before.occurrence,
    attempt: expectedAttempt(event, before, after),
  });
  expect(t.finished).toBe(isTerminal(after.status) && !isTerminal(before.status));
}

describe('the action lifecycle, for random event sequences', () => {
  it('keeps its invariants from a new action through any sequence of claims and events', () => {
    fc.assert(
      fc.property(setting, request, fc.nat(), fc.array(step, { maxLength: 30, size: 'max' }), ({ global, type }, asked, seed, steps) => {
        let created: ActionState;
        try {
          created = newActionState(asked, 'creator', new Date(START), seed).state;
        } catch (error) {
          // A cron schedule whose first time falls after endAt: the API refuses to create it.
          if (!(error instanceof InvalidChangeError)) throw error;
          fc.pre(false);
          return;
        }
        const world: World = { now: START, state: created, running: null };

        for (const s of steps) {
          const policy = effectiveRetryPolicy(global, type, world.state.retryPolicy);
          if (s.kind === 'wait') {
            world.now += s.ms;
            continue;
          }
          if (s.kind === 'claim') {
            // The queue delivers the job when it is due; the claim statement takes only a due PENDING action.
            if (world.state.status !== ActionStatus.Pending) continue;
            expect(world.running).toBeNull();
            world.now = Math.max(world.now, world.state.nextAttemptAt.getTime());
            const claim: LifecycleEvent = { type: 'claimed' };
            const t = transition(world.state, claim);
            checkTransition(claim, t, policy.maxRetries);
            world.state = t.after;
            world.running = world.state.retryCount + 1;
          } else {
            const event = eventOf(s, world, policy);
            const t = applied(world, event);
            if (!t) continue;
            checkTransition(event, t, policy.maxRetries);
            // The attempt a worker holds ends with the attempt's outcome; an interruption hands on to the next one.
            const stillRunning = t.after.status === ActionStatus.InProgress;
            if (event.type === 'interrupted' && stillRunning) world.running = (world.running ?? 0) + 1;
            else if (!stillRunning) world.running = null;
            world.state = t.after;
          }
          // Never a second attempt while one runs: IN_PROGRESS exactly while one attempt is held, numbered after the failed ones.
          expect(world.running !== null).toBe(world.state.status === ActionStatus.InProgress);
          if (world.running !== null) expect(world.running).toBe(world.state.retryCount + 1);
        }
      }),
      { numRuns: 400 },
    );
  });
});
