import { ActionEntity, LifecycleStorePort, TransitionGuard } from '@app/database';
import { ActionState, ActionStatus, HistoryDraft, LifecycleEvent, Transition, attemptOutcomeOf, skipEntriesOf, transition } from '@app/domain';
import { EntryDecision } from '@app/testing';
import { STATE_FIELDS } from '../../libs/database/src/lifecycle-store/state-columns';
import { DELETION_CASES, NOTICE_CASES, SKIP_NOTICE_CASES, TRANSITION_CASES, catchUp } from '../../libs/domain/src/lifecycle/lifecycle.cases';

// Every case of the lifecycle's table, persisted by an implementation of the store port: the row,
// the history entries and the webhook events written must be exactly what transition() decided,
// so no store can drift from the lifecycle. test/lifecycle-store.e2e-spec.ts runs it on Postgres,
// test/in-memory-lifecycle-store.spec.ts on the store the unit specs use.

/** An outbox event as the cases compare it. */
export interface WrittenEvent {
  type: string;
  occurrence: number;
  attempt: number;
  note: string | null;
  reason: string | null;
  skipped: string[] | null;
  count: number | null;
}

/** A store under test, and how to look at what it holds. */
export interface StoreUnderTest {
  store: LifecycleStorePort;
  /** Stores `state` as an action of type HTTP_REQUEST with a callback URL, claimed (a live claim) when IN_PROGRESS, and reads it back as the writers do. */
  stored(state: ActionState): Promise<ActionEntity>;
  /**
   * The action as stored (null when gone), its history entries in order (the creation's first),
   * what each entry records of the event that wrote it, and its outbox events.
   */
  found(id: string): Promise<{ row: ActionEntity | null; history: HistoryDraft[]; decisions: EntryDecision[]; events: WrittenEvent[] }>;
  /** Lets the claim of a stored IN_PROGRESS action lapse, as when its worker died. */
  lapse(id: string): Promise<void>;
  close(): Promise<void>;
}

/** The state fields the lifecycle decides, as compared between a store's row and a transition's `after`. */
const stateOf = (action: ActionState) => Object.fromEntries(STATE_FIELDS.map((field) => [field, action[field]]));

/** The guard each kind of writer uses: a worker writes an attempt's end under its claim, anyone else at the revision read. */
function guardOf(before: ActionState, event: LifecycleEvent): TransitionGuard {
  const attemptEnd = ['succeeded', 'failed', 'interrupted', 'typeUnknown'].includes(event.type);
  return attemptEnd && before.status === ActionStatus.InProgress ? { kind: 'claim' } : { kind: 'revision', statuses: [before.status] };
}

const byNote = (a: { note: string | null }, b: { note: string | null }) => (a.note ?? '').localeCompare(b.note ?? '');

/** The events a transition must leave in the outbox: one per reason it skipped occurrences for, then its notice. */
function eventsOf(t: Transition<ActionEntity>): WrittenEvent[] {
  const skipped = t.skipNotices.map((notice) => ({
    type: 'action.occurrence_skipped',
    occurrence: t.after.occurrence,
    attempt: 0,
    note: notice.note,
    reason: notice.reason,
    skipped: notice.times.map((time) => time.toISOString()),
    count: notice.count,
  }));
  const notice = t.notice ? [{ ...t.notice, reason: null, skipped: null, count: null }] : [];
  return [...skipped, ...notice].sort(byNote);
}

/**
 * The store's drift spec: `open` gives a store whose tenant holds the cases' calendar
 * (CASE_CALENDAR, with the day their occurrences are due).
 */
export function describeStoreCases(title: string, open: () => Promise<StoreUnderTest>): void {
  describe(`${title} persists exactly what the lifecycle decided (every case of its table)`, () => {
    let subject: StoreUnderTest;
    let store: LifecycleStorePort;

    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(() => subject.close());

    async function persisted(id: string) {
      const { row, history, decisions, events } = await subject.found(id);
      // The first entry is the case's own creation; the rest are what the transition wrote.
      return {
        row,
        written: history.slice(1),
        creation: decisions[0],
        decisions: decisions.slice(1),
        lastEntry: history.at(-1),
        events: [...events].sort(byNote),
      };
    }

    function expectWritten(t: Transition<ActionEntity>, written: ActionEntity | null, found: Awaited<ReturnType<typeof persisted>>): void {
      expect(written).not.toBeNull();
      expect(stateOf(found.row!)).toEqual(stateOf(t.after));
      expect(stateOf(written!)).toEqual(stateOf(t.after));
      expect(found.row!.finishedAt !== null).toBe(t.finished);
      expect(found.row!.claimToken !== null).toBe(t.after.status === ActionStatus.InProgress);
      expect(found.written).toEqual([...skipEntriesOf(t), ...t.history]);
      expect(found.creation).toEqual({ event: 'created', outcome: null });
      // Every entry names the event; only the event's own entry can end an attempt.
      expect(found.decisions).toEqual([
        ...skipEntriesOf(t).map(() => ({ event: t.event, outcome: null })),
        ...t.history.map(() => ({ event: t.event, outcome: attemptOutcomeOf(t.event) })),
      ]);
      expect(found.events).toEqual(eventsOf(t));
    }

    /**
     * What the lifecycle decides for `event`, and what the store wrote for it: a claim through
     * `claim`, every other event through `persist`. A calendar date is what the claim finds before
     * the worker persists its skip.
     */
    async function decidedAndWritten(action: ActionEntity, event: LifecycleEvent) {
      const t = transition(action, event);
      if (event.type === 'calendarDate')
        expect(await store.claim(action.id, action.revision, 'HTTP_REQUEST', 60_000)).toMatchObject({ kind: 'calendar-date' });
      if (event.type !== 'claimed') return { t, written: await store.persist(t, guardOf(action, event)) };
      const claim = await store.claim(action.id, action.revision, 'HTTP_REQUEST', 60_000);
      return { t, written: claim.kind === 'claimed' ? claim.action : null };
    }

    const cases = (table: [string, ActionState, LifecycleEvent, ...unknown[]][]) => table.map(([name, before, event]) => [name, before, event] as const);

    it.each([...cases(TRANSITION_CASES), ...cases(SKIP_NOTICE_CASES).map(([name, ...rest]) => [`skips of ${name}`, ...rest] as const)])(
      '%s',
      async (_name, before, event) => {
        const action = await subject.stored(before);
        const { t, written } = await decidedAndWritten(action, event);
        expectWritten(t, written, await persisted(action.id));
      },
    );

    it.each(cases(NOTICE_CASES))('notice of %s', async (_name, before, event) => {
      const action = await subject.stored(before);
      const { t, written } = await decidedAndWritten(action, event);
      expectWritten(t, written, await persisted(action.id));
    });

    describe('a claim finds', () => {
      const pending = (overrides: Partial<ActionState> = {}) => subject.stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending, ...overrides });
      const claimOf = (action: ActionEntity, revision = action.revision, type = 'HTTP_REQUEST') => store.claim(action.id, revision, type, 60_000);

      it('nothing for another revision, another type, a finished action or one held by a pause', async () => {
        const action = await pending();
        expect(await claimOf(action, action.revision + 1)).toEqual({ kind: 'none' });
        expect(await claimOf(action, action.revision, 'MESSAGE')).toEqual({ kind: 'none' });
        expect(await claimOf(await pending({ status: ActionStatus.Completed }))).toEqual({ kind: 'none' });
        expect(await claimOf(await pending({ pausedFrom: 1 }))).toEqual({ kind: 'none' });
        expect((await subject.found(action.id)).history).toHaveLength(1);
      });

      it('an action due later not due yet, for as long as it has to wait', async () => {
        const later = new Date(Date.now() + 60_000);
        const claim = await claimOf(await pending({ executionTime: later, nextAttemptAt: later }));
        expect(claim.kind).toBe('not-due');
        expect((claim as { dueInMs: number }).dueInMs).toBeGreaterThan(50_000);
        expect((claim as { dueInMs: number }).dueInMs).toBeLessThanOrEqual(60_000);
      });

      it('an attempt under a live claim not due, until its lease ends', async () => {
        const claim = await claimOf(await subject.stored(TRANSITION_CASES[2][1]));
        expect(claim.kind).toBe('not-due');
        expect((claim as { dueInMs: number }).dueInMs).toBeGreaterThan(3_000_000);
      });

      it('a lapsed claim to take over: the status and history as they were, under a new token', async () => {
        const action = await subject.stored(TRANSITION_CASES[2][1]);
        await subject.lapse(action.id);
        const claim = await claimOf(action);
        expect(claim).toMatchObject({ kind: 'claimed', takenOver: true, action: { status: ActionStatus.InProgress, retryCount: action.retryCount } });
        const found = await subject.found(action.id);
        expect(found.row!.claimToken).not.toBe(action.claimToken);
        expect(found.history).toHaveLength(1);
        // Once taken over, the claim is live again: a second job waits.
        expect((await claimOf(action)).kind).toBe('not-due');
      });
    });

    it('writes nothing, and answers null, when the row moved on since it was read', async () => {
      const action = await subject.stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending });
      const first = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { executionTime: new Date(Date.now() + 3_600_000) } });
      expect(await store.persist(first, { kind: 'revision', statuses: [ActionStatus.Pending] })).not.toBeNull();
      const stale = transition(action, { type: 'typeUnknown', note: 'stale' });
      expect(await store.persist(stale, { kind: 'revision', statuses: [ActionStatus.Pending] })).toBeNull();
      const found = await persisted(action.id);
      expect(stateOf(found.row!)).toEqual(stateOf(first.after));
      expect(found.lastEntry).toEqual(first.history[0]);
      expect(found.events).toEqual([]);
    });

    it('writes nothing when the row was paused since it was read: a pause changes no revision, and a NO_ACTION decided before it must not land', async () => {
      const action = await subject.stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending });
      const pause = transition(action, { type: 'paused', now: new Date(action.executionTime.getTime() - 60_000), note: null, lockWindowMs: 0 });
      expect(pause.after.pausedFrom).toBe(action.occurrence); // held: its occurrence waits for a resume
      expect(pause.after.revision).toBe(action.revision);
      expect(await store.persist(pause, { kind: 'revision', statuses: [ActionStatus.Pending] })).not.toBeNull();
      const stale = transition(action, { type: 'typeUnknown', note: 'decided before the pause' });
      expect(await store.persist(stale, { kind: 'revision', statuses: [ActionStatus.Pending] })).toBeNull();
      const found = await persisted(action.id);
      expect(stateOf(found.row!)).toEqual(stateOf(pause.after));
      // The pause's own event only: nothing of the stale NO_ACTION.
      expect(found.events).toHaveLength(1);
      expect(found.events[0]).toMatchObject({ type: 'action.paused' });
    });

    it('keeps both of two changes of different fields read at the same revision', async () => {
      const action = await subject.stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending, executionTime: new Date(Date.now() + 3_600_000) });
      const metadata = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { metadata: { plan: 'pro' } } });
      const data = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { data: { url: 'https://example.com/other' } } });
      const guard: TransitionGuard = { kind: 'revision', statuses: [ActionStatus.Pending] };
      const [first, second] = await Promise.all([store.persist(metadata, guard), store.persist(data, guard)]);
      expect(first).not.toBeNull();
      // In one batch the second finds the first's write and is refused (its caller reads again); one after the other, both stand.
      const row = (await persisted(action.id)).row!;
      expect(row.metadata).toEqual({ plan: 'pro' });
      if (second) expect(row.data).toEqual({ url: 'https://example.com/other' });
      else expect(row.data).toEqual(action.data);
    });

    it.each(DELETION_CASES)('%s: the row goes, with its history, and nothing is told', async (_name, before) => {
      const action = await subject.stored(before);
      const t = transition(action, { type: 'deleted' });
      expect(await store.persist(t, { kind: 'revision', statuses: [action.status] })).toBe(action);
      const found = await persisted(action.id);
      expect(found.row).toBeNull();
      expect(found.lastEntry).toBeUndefined();
      expect(found.events).toEqual([]);
    });

    it('deletes only while its guard holds: the revision read, the status, and a due time after the lock window', async () => {
      const later = new Date(Date.now() + 3_600_000);
      const action = await subject.stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending, executionTime: later, nextAttemptAt: later });
      const deleted = (read: ActionEntity) => transition(read, { type: 'deleted' });
      const exists = async () => (await subject.found(action.id)).row !== null;
      const pending = (dueAfter?: Date): TransitionGuard => ({ kind: 'revision', statuses: [ActionStatus.Pending], dueAfter });
      expect(await store.persist(deleted(action), pending(new Date(later.getTime() + 1)))).toBeNull();
      expect(await store.persist(deleted({ ...action, revision: action.revision + 1 }), pending())).toBeNull();
      expect(await store.persist(deleted(action), { kind: 'revision', statuses: [ActionStatus.Failed] })).toBeNull();
      expect(await exists()).toBe(true);
      expect(() => store.persist(deleted(action), { kind: 'claim' })).toThrow(/never under a claim/);
      expect(await store.persist(deleted(action), pending(new Date(later.getTime() - 1)))).toBe(action);
      expect(await exists()).toBe(false);
    });

    it('refuses an outcome that changes a field frozen while the attempt runs, writing nothing', async () => {
      const action = await subject.stored(TRANSITION_CASES[2][1]);
      const t = transition(action, { type: 'succeeded', now: new Date(), note: null, catchUp });
      const tampered = { ...t, after: { ...t.after, metadata: { changed: true } } };
      expect(() => store.persist(tampered, { kind: 'claim' })).toThrow(/cannot change metadata/);
      expect(stateOf((await persisted(action.id)).row!)).toEqual(stateOf(action));
    });
  });
}
