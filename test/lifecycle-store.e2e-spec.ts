import { randomUUID } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import { ActionEntity, ActionsRepository, CalendarsRepository, EVERY_TENANT, LifecycleStore, TransitionGuard } from '@app/database';
import { ActionState, ActionStatus, DEFAULT_TENANT, LifecycleEvent, Transition, attemptOutcomeOf, skipEntry, transition } from '@app/domain';
import { STATE_FIELDS } from '../libs/database/src/lifecycle-store/state-columns';
import { CASE_CALENDAR, DELETION_CASES, NOTICE_CASES, SKIP_NOTICE_CASES, TRANSITION_CASES, catchUp } from '../libs/domain/src/lifecycle/lifecycle.cases';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';

// Every case of the lifecycle's table, persisted by the store on Postgres: the row, the history entry and the webhook event written must be exactly what
// transition() decided, so the SQL cannot drift from the lifecycle.

/** The guard each kind of writer uses: a worker writes an attempt's end under its claim, anyone else at the revision read. */
function guardOf(before: ActionState, event: LifecycleEvent): TransitionGuard {
  const attemptEnd = ['succeeded', 'failed', 'interrupted', 'typeUnknown'].includes(event.type);
  return attemptEnd && before.status === ActionStatus.InProgress ? { kind: 'claim' } : { kind: 'revision', statuses: [before.status] };
}

const stateOf = (action: ActionState) => Object.fromEntries(STATE_FIELDS.map((field) => [field, action[field]]));

describe('The store persists exactly what the lifecycle decided (every case of its table)', () => {
  let api: ApiTestApp;
  let store: LifecycleStore;

  beforeAll(async () => {
    api = await startCleanApiApp();
    store = api.app.get(LifecycleStore);
    // The calendar the cases name, holding the day their occurrences are due.
    const { maxPerTenant } = api.app.get(PunctualConfig).calendars;
    await api.app.get(CalendarsRepository).put(DEFAULT_TENANT, CASE_CALENDAR, ['2025-03-01'], null, maxPerTenant);
  });
  afterAll(() => api.close());

  /** Stores `state` as an action, claimed when IN_PROGRESS, and reads it back as the writers do. */
  async function stored(state: ActionState): Promise<ActionEntity> {
    const id = randomUUID();
    // A callback URL makes every notice land in the outbox, subscription or not.
    const withCallback = { ...state, callbackUrl: 'https://example.com/punctual-events' };
    await store.createMany([
      {
        id,
        tenantId: DEFAULT_TENANT,
        action: 'HTTP_REQUEST',
        apiKeyId: 'test-key',
        state: withCallback,
        history: { from: null, to: state.status, occurrence: state.occurrence, attempt: 0, note: 'case' },
      },
    ]);
    if (state.status === ActionStatus.InProgress) {
      await api.db.query(`UPDATE actions SET claim_token = $2, claimed_until = now() + interval '1 hour' WHERE id = $1`, [id, randomUUID()]);
    }
    return (await api.app.get(ActionsRepository).findById(id, EVERY_TENANT))!;
  }

  async function persisted(id: string) {
    const row = (await api.app.get(ActionsRepository).findById(id, EVERY_TENANT))!;
    const rows: { from: string | null; to: string; occurrence: number; attempt: number; note: string | null; event: string; outcome: string | null }[] =
      await api.db.query(
        `SELECT from_status AS "from", to_status AS "to", occurrence, attempt, note, event, outcome FROM action_history WHERE action_id = $1 ORDER BY id`,
        [id],
      );
    const history = rows.map(({ from, to, occurrence, attempt, note }) => ({ from, to, occurrence, attempt, note }));
    // What each entry records of the event that wrote it.
    const recorded = rows.map(({ event, outcome }) => ({ event, outcome }));
    const events: { note: string | null }[] = await api.db.query(
      `SELECT type, occurrence, attempt, note, reason, skipped, skipped_count AS count FROM webhook_events WHERE action_id = $1`,
      [id],
    );
    // The first entry is the case's own creation; the rest are what the transition wrote.
    return { row, written: history.slice(1), creation: recorded[0], recorded: recorded.slice(1), lastEntry: history.at(-1), events: events.sort(byNote) };
  }

  const byNote = (a: { note: string | null }, b: { note: string | null }) => (a.note ?? '').localeCompare(b.note ?? '');

  /** The events a transition must leave in the outbox: one per reason it skipped occurrences for, then its notice. */
  function eventsOf(t: Transition<ActionEntity>) {
    const skipped = t.skipNotices.map((notice) => ({
      type: 'action.occurrence_skipped',
      occurrence: t.after.occurrence,
      attempt: 0,
      note: notice.note,
      reason: notice.reason,
      skipped: notice.times.map((time) => time.toISOString()),
      count: notice.count,
    }));
    const notice = t.notice
      ? [
          {
            type: t.notice.type,
            occurrence: t.notice.occurrence,
            attempt: t.notice.attempt,
            note: t.notice.note,
            reason: null,
            skipped: null,
            count: null,
          },
        ]
      : [];
    return [...skipped, ...notice].sort(byNote);
  }

  function expectWritten(t: Transition<ActionEntity>, written: ActionEntity | null, found: Awaited<ReturnType<typeof persisted>>): void {
    expect(written).not.toBeNull();
    expect(stateOf(found.row)).toEqual(stateOf(t.after));
    expect(stateOf(written!)).toEqual(stateOf(t.after));
    expect(found.row.finishedAt !== null).toBe(t.finished);
    expect(found.row.claimToken !== null).toBe(t.after.status === ActionStatus.InProgress);
    expect(found.written).toEqual([...t.skipped.map((skip) => skipEntry(skip, t.after.occurrence)), ...t.history]);
    expect(found.creation).toEqual({ event: 'created', outcome: null });
    // Every entry names the event; only the event's own entry can end an attempt.
    expect(found.recorded).toEqual([
      ...t.skipped.map(() => ({ event: t.event, outcome: null })),
      ...t.history.map(() => ({ event: t.event, outcome: attemptOutcomeOf(t.event) })),
    ]);
    expect(found.events).toEqual(eventsOf(t));
  }

  /**
   * What the lifecycle decides for `event`, and what the store wrote for it: a claim through
   * `claim` (Postgres decides claims in batches), every other event through `persist`. A calendar
   * date is what the claim finds before the worker persists its skip.
   */
  async function decidedAndWritten(action: ActionEntity, event: LifecycleEvent) {
    const t = transition(action, event);
    if (event.type === 'calendarDate')
      expect(await store.claim(action.id, action.revision, 'HTTP_REQUEST', 60_000)).toMatchObject({ kind: 'calendar-date' });
    if (event.type !== 'claimed') return { t, written: await store.persist(t, guardOf(action, event)) };
    const claim = await store.claim(action.id, action.revision, 'HTTP_REQUEST', 60_000);
    return { t, written: claim.kind === 'claimed' ? claim.action : null };
  }

  it.each(TRANSITION_CASES.map(([name, before, event]) => [name, before, event] as const))('%s', async (_name, before, event) => {
    const action = await stored(before);
    const { t, written } = await decidedAndWritten(action, event);
    expectWritten(t, written, await persisted(action.id));
  });

  it.each(SKIP_NOTICE_CASES.map(([name, before, event]) => [name, before, event] as const))('skips of %s', async (_name, before, event) => {
    const action = await stored(before);
    const { t, written } = await decidedAndWritten(action, event);
    expectWritten(t, written, await persisted(action.id));
  });

  it.each(NOTICE_CASES.map(([name, before, event]) => [name, before, event] as const))('notice of %s', async (_name, before, event) => {
    const action = await stored(before);
    const { t, written } = await decidedAndWritten(action, event);
    expectWritten(t, written, await persisted(action.id));
  });

  it('writes nothing, and answers null, when the row moved on since it was read', async () => {
    const action = await stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending });
    const first = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { executionTime: new Date(Date.now() + 3_600_000) } });
    expect(await store.persist(first, { kind: 'revision', statuses: [ActionStatus.Pending] })).not.toBeNull();
    const stale = transition(action, { type: 'typeUnknown', note: 'stale' });
    expect(await store.persist(stale, { kind: 'revision', statuses: [ActionStatus.Pending] })).toBeNull();
    const found = await persisted(action.id);
    expect(stateOf(found.row)).toEqual(stateOf(first.after));
    expect(found.lastEntry).toEqual(first.history[0]);
    expect(found.events).toEqual([]);
  });

  it('writes nothing when the row was paused since it was read: a pause changes no revision, and a NO_ACTION decided before it must not land', async () => {
    const action = await stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending });
    const pause = transition(action, { type: 'paused', now: new Date(action.executionTime.getTime() - 60_000), note: null, lockWindowMs: 0 });
    expect(pause.after.pausedFrom).toBe(action.occurrence); // held: its occurrence waits for a resume
    expect(pause.after.revision).toBe(action.revision);
    expect(await store.persist(pause, { kind: 'revision', statuses: [ActionStatus.Pending] })).not.toBeNull();
    const stale = transition(action, { type: 'typeUnknown', note: 'decided before the pause' });
    expect(await store.persist(stale, { kind: 'revision', statuses: [ActionStatus.Pending] })).toBeNull();
    const found = await persisted(action.id);
    expect(stateOf(found.row)).toEqual(stateOf(pause.after));
    // The pause's own event only: nothing of the stale NO_ACTION.
    expect(found.events).toHaveLength(1);
    expect(found.events[0]).toMatchObject({ type: 'action.paused' });
  });

  it('keeps both of two changes of different fields read at the same revision', async () => {
    const action = await stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending, executionTime: new Date(Date.now() + 3_600_000) });
    const metadata = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { metadata: { plan: 'pro' } } });
    const data = transition(action, { type: 'patched', now: new Date(), by: 'test-key', changes: { data: { url: 'https://example.com/other' } } });
    const guard: TransitionGuard = { kind: 'revision', statuses: [ActionStatus.Pending] };
    const [first, second] = await Promise.all([store.persist(metadata, guard), store.persist(data, guard)]);
    expect(first).not.toBeNull();
    // In one batch the second finds the first's write and is refused (its caller reads again); one after the other, both stand.
    const row = (await persisted(action.id)).row;
    expect(row.metadata).toEqual({ plan: 'pro' });
    if (second) expect(row.data).toEqual({ url: 'https://example.com/other' });
    else expect(row.data).toEqual(action.data);
  });

  it.each(DELETION_CASES)('%s: the row goes, with its history, and nothing is told', async (_name, before) => {
    const action = await stored(before);
    const t = transition(action, { type: 'deleted' });
    expect(await store.persist(t, { kind: 'revision', statuses: [action.status] })).toBe(action);
    const found = await persisted(action.id);
    expect(found.row).toBeNull();
    expect(found.lastEntry).toBeUndefined();
    expect(found.events).toEqual([]);
  });

  it('deletes only while its guard holds: the revision read, the status, and a due time after the lock window', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const action = await stored({ ...TRANSITION_CASES[0][1], status: ActionStatus.Pending, executionTime: later, nextAttemptAt: later });
    const deleted = (read: ActionEntity) => transition(read, { type: 'deleted' });
    const exists = async () => (await api.app.get(ActionsRepository).findById(action.id, EVERY_TENANT)) !== null;
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
    const action = await stored(TRANSITION_CASES[2][1]);
    const t = transition(action, { type: 'succeeded', now: new Date(), note: null, catchUp });
    const tampered = { ...t, after: { ...t.after, metadata: { changed: true } } };
    expect(() => store.persist(tampered, { kind: 'claim' })).toThrow(/cannot change metadata/);
    expect(stateOf((await persisted(action.id)).row)).toEqual(stateOf(action));
  });
});
