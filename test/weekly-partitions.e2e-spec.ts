import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PartitionsRepository } from '@app/database';
import { RetentionLoop } from '@app/server';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { databaseMigratedTo, undoMigrationsAfter } from './support/migrated-database';
import { holdRetentionLock } from './support/retention-lock';
import { startWorker } from './support/worker-test-app';

const TABLES = ['action_history', 'webhook_events', 'webhook_deliveries'];
const DAY_MS = 86_400_000;

/** The Monday 00:00 UTC starting the week of `time`, as partitions name it. */
function weekOf(time: Date): { start: Date; suffix: string } {
  const day = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  const start = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return { start, suffix: `_p${start.toISOString().slice(0, 10).replace(/-/g, '')}` };
}

describe('Weekly partitions of the history and the webhook outbox', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let releaseRetentionLock: () => Promise<void>;
  let subscription: string;
  let action: string;

  beforeAll(async () => {
    api = await startCleanApiApp();
    releaseRetentionLock = await holdRetentionLock(api);
    // A failed webhook delivery waits an hour for its retry: it stays PENDING while the spec runs.
    worker = await startWorker({ env: { RETENTION_DAYS: '14', WEBHOOK_BACKOFF_DELAYS_MS: '3600000' } });
  });
  afterAll(async () => {
    // The specs after this one find this week and the next ones made, as the migration leaves them.
    await worker.get(PartitionsRepository).createAhead(2);
    await worker.close();
    await releaseRetentionLock();
    await api.close();
  });

  beforeEach(async () => {
    await api.db.query('TRUNCATE actions, action_history, idempotency_keys, webhook_subscriptions, webhook_events, webhook_deliveries');
    const [{ names }] = await api.db.query(
      `SELECT string_agg(format('%I', c.relname), ', ') AS names FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent::regclass::text = ANY($1) AND c.relname NOT LIKE '%\\_default'`,
      [TABLES],
    );
    if (names) await api.db.query(`DROP TABLE ${names}`);
    subscription = (await api.client.post('/webhooks', { url: 'https://example.com/h', events: ['webhook.test'] })).body.id;
    action = (await api.client.post('/actions', httpRequestExample())).body.id;
  });

  const makeWeekOf = (time: Date) => api.db.query(`SELECT punctual_create_week_partitions(($1::timestamptz AT TIME ZONE 'UTC')::date)`, [time]);
  const partitions = async (): Promise<string[]> =>
    (
      await api.db.query(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent::regclass::text = ANY($1) ORDER BY 1`,
        [TABLES],
      )
    ).map((r: { relname: string }) => r.relname);
  /** A history entry of the spec's action at `at`, noted with its time; returns its id. */
  const history = async (at: Date): Promise<string> => {
    const [{ id }] = await api.db.query(
      `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
        VALUES ($1, 1, 'PENDING', 'PENDING', 0, $2, $3, 'patched') RETURNING id`,
      [action, at.toISOString(), at],
    );
    return id;
  };
  /** Moves the spec action's creation entry to `at`, as if it had been created then; returns its id. */
  const backdateCreation = async (at: Date): Promise<string> => {
    const [[{ id }]] = await api.db.query(`UPDATE action_history SET at = $2 WHERE action_id = $1 AND from_status IS NULL RETURNING id::text`, [
      action,
      at,
    ]);
    return id;
  };
  /** A test event made at `at`, its delivery (by the outbox's trigger) left in `status`; returns the delivery. */
  const outboxEvent = async (at: Date, status: string): Promise<string> => {
    const [{ id }] = await api.db.query(
      `WITH e AS (INSERT INTO webhook_events (tenant_id, type, subscription_id, created_at) VALUES ('default', 'webhook.test', $1, $2) RETURNING id)
       SELECT id FROM e`,
      [subscription, at],
    );
    const [[delivery]] = await api.db.query(`UPDATE webhook_deliveries SET status = $2 WHERE event_id = $1 RETURNING id`, [id, status]);
    return delivery.id;
  };
  const where = async (table: string, ids: string[]): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await api.db.query(`SELECT id::text, tableoid::regclass::text AS part FROM ${table} WHERE id::text = ANY($1)`, [ids])).map(
        (r: { id: string; part: string }) => [r.id, r.part],
      ),
    );

  it('makes this week (UTC) and the next two of each table, once', async () => {
    const repository = worker.get(PartitionsRepository);
    expect(await repository.createAhead(2)).toBe(9);
    expect(await repository.createAhead(2)).toBe(0);
    const weeks = [0, 7, 14].map((days) => weekOf(new Date(Date.now() + days * DAY_MS)).suffix);
    expect(await partitions()).toEqual(TABLES.flatMap((t) => [`${t}_default`, ...weeks.map((w) => `${t}${w}`)]).sort());
    const [bounds] = await api.db.query(`SELECT pg_get_expr(c.relpartbound, c.oid, true) AS bounds FROM pg_class c WHERE c.relname = $1`, [
      `action_history${weeks[0]}`,
    ]);
    const start = weekOf(new Date()).start;
    const [{ expected }] = await api.db.query(
      `SELECT format('FOR VALUES FROM (%L) TO (%L)', $1::timestamptz, $1::timestamptz + interval '7 days') AS expected`,
      [start],
    );
    expect(bounds.bounds).toBe(expected);
  });

  it('drops a week whole once it ended 14 days ago, and keeps every newer row', async () => {
    const edgeWeek = weekOf(new Date(Date.now() - 14 * DAY_MS));
    const oldWeek = weekOf(new Date(edgeWeek.start.getTime() - 7 * DAY_MS));
    for (const week of [oldWeek, edgeWeek]) await makeWeekOf(week.start);
    const [oldAt, edgeAt] = [oldWeek, edgeWeek].map((week) => new Date(week.start.getTime() + 1000));
    const entries = { old: await history(oldAt), edge: await history(edgeAt), recent: await history(new Date()) };
    const deliveries = {
      old: await outboxEvent(oldAt, 'DELIVERED'),
      edge: await outboxEvent(edgeAt, 'DELIVERED'),
      recent: await outboxEvent(new Date(), 'FAILED'),
    };

    const purged = await worker.get(RetentionLoop).purge();
    const oldPartitions = TABLES.map((t) => `${t}${oldWeek.suffix}`);
    expect([...purged.partitions.dropped].sort()).toEqual([...oldPartitions].sort());
    const left = await partitions();
    expect(left.filter((name) => oldPartitions.includes(name))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(TABLES.map((t) => `${t}${edgeWeek.suffix}`)));
    // The edge week holds an entry older than 14 days: it stays until its whole week is past.
    expect(Object.keys(await where('action_history', Object.values(entries))).sort()).toEqual([entries.edge, entries.recent].sort());
    expect(Object.keys(await where('webhook_deliveries', Object.values(deliveries))).sort()).toEqual([deliveries.edge, deliveries.recent].sort());
    expect((await api.db.query(`SELECT count(*)::int AS n FROM webhook_events`))[0].n).toBe(2);
  });

  it("keeps an action's creation entry when its week is dropped, in the DEFAULT partition, until the action goes", async () => {
    const oldWeek = weekOf(new Date(Date.now() - 28 * DAY_MS));
    await makeWeekOf(oldWeek.start);
    const createdAt = new Date(oldWeek.start.getTime() + 1000);
    // The action was created four weeks ago, and ran in the same week.
    const creation = await backdateCreation(createdAt);
    const ran = await history(new Date(createdAt.getTime() + 1000));
    expect(await where('action_history', [creation, ran])).toEqual({
      [creation]: `action_history${oldWeek.suffix}`,
      [ran]: `action_history${oldWeek.suffix}`,
    });

    const purged = await worker.get(RetentionLoop).purge();
    expect(purged.partitions.dropped).toEqual(expect.arrayContaining([`action_history${oldWeek.suffix}`]));
    expect(await where('action_history', [creation, ran])).toEqual({ [creation]: 'action_history_default' });
    // The DEFAULT partition's row-by-row purge keeps it too.
    expect(await worker.get(RetentionLoop).purge()).toMatchObject({ history: 0 });
    const [first] = (await api.client.get(`/actions/${action}/history`)).body;
    expect(first).toMatchObject({ from: null, to: 'PENDING', at: createdAt.toISOString() });

    await api.db.query(`DELETE FROM actions WHERE id = $1`, [action]);
    expect(await where('action_history', [creation])).toEqual({});
  });

  it('keeps an outbox week past retention while one of its deliveries is pending, and drops it once none is', async () => {
    const oldWeek = weekOf(new Date(Date.now() - 28 * DAY_MS));
    await makeWeekOf(oldWeek.start);
    const at = new Date(oldWeek.start.getTime() + 1000);
    await outboxEvent(at, 'DELIVERED');
    const pending = await outboxEvent(at, 'PENDING');
    const history = `action_history${oldWeek.suffix}`;
    const [deliveries, events] = [`webhook_deliveries${oldWeek.suffix}`, `webhook_events${oldWeek.suffix}`];

    const first = await worker.get(RetentionLoop).purge();
    expect(first.partitions.dropped).toEqual([history]);
    expect(first.partitions.kept).toEqual([
      { partition: deliveries, reason: 'pending deliveries' },
      { partition: events, reason: 'pending deliveries' },
    ]);
    expect((await api.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n).toBe(2);

    await api.db.query(`UPDATE webhook_deliveries SET status = 'FAILED' WHERE id = $1`, [pending]);
    const second = await worker.get(RetentionLoop).purge();
    expect(second.partitions.dropped).toEqual([deliveries, events]);
    expect(await partitions()).not.toEqual(expect.arrayContaining([deliveries]));
    expect((await api.db.query(`SELECT count(*)::int AS n FROM webhook_events`))[0].n).toBe(0);
  });

  it('deletes rows of the DEFAULT partitions 14 days after they were made, row by row, and keeps the newer ones, creation entries and pending deliveries', async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
    const entries = { old: await history(daysAgo(15)), recent: await history(daysAgo(13)) };
    const creation = await backdateCreation(daysAgo(15));
    const deliveries = {
      delivered: await outboxEvent(daysAgo(15), 'DELIVERED'),
      failed: await outboxEvent(daysAgo(15), 'FAILED'),
      pending: await outboxEvent(daysAgo(15), 'PENDING'),
      recent: await outboxEvent(daysAgo(13), 'DELIVERED'),
    };

    const purged = await worker.get(RetentionLoop).purge();
    expect(purged).toMatchObject({ history: 1, webhookEvents: 2 });
    // The action's creation entry stays with the action, however old.
    expect(await where('action_history', [...Object.values(entries), creation])).toEqual({
      [entries.recent]: 'action_history_default',
      [creation]: 'action_history_default',
    });
    expect(await where('webhook_deliveries', Object.values(deliveries))).toEqual({
      [deliveries.pending]: 'webhook_deliveries_default',
      [deliveries.recent]: 'webhook_deliveries_default',
    });
    expect((await api.db.query(`SELECT count(*)::int AS n FROM webhook_events`))[0].n).toBe(2);
  });

  it('moves the rows of a week out of the DEFAULT partitions when the week is made', async () => {
    const entry = await history(new Date());
    const delivery = await outboxEvent(new Date(), 'PENDING');
    expect(await where('action_history', [entry])).toEqual({ [entry]: 'action_history_default' });

    await worker.get(PartitionsRepository).createAhead(0);
    const week = weekOf(new Date()).suffix;
    expect(await where('action_history', [entry])).toEqual({ [entry]: `action_history${week}` });
    expect(await where('webhook_deliveries', [delivery])).toEqual({ [delivery]: `webhook_deliveries${week}` });
    const [{ n }] = await api.db.query(`SELECT count(*)::int AS n FROM webhook_events${week}`);
    expect(n).toBe(1);
  });

  it('reads an action history and a subscription deliveries across weeks, and redelivers from an older week', async () => {
    const times = [21, 9, 0].map((days) => new Date(Date.now() - days * DAY_MS));
    for (const time of times) await makeWeekOf(time);
    for (const time of times) await history(time);
    const deliveries = [];
    for (const time of times) deliveries.push(await outboxEvent(time, 'FAILED'));

    const page = (await api.client.get(`/actions/${action}/history`)).body;
    expect(page.map((e: { note: string }) => e.note).slice(1)).toEqual(times.map((time) => time.toISOString()));
    const listed = (await api.client.get(`/webhooks/${subscription}/deliveries`)).body;
    expect(listed.items.map((d: { id: string }) => d.id)).toEqual([...deliveries].reverse());
    // The 9-day-old one: an older week, still within RETENTION_DAYS (an event past it is gone for a redelivery).
    const redelivered = await api.client.post(`/webhooks/${subscription}/deliveries/${deliveries[1]}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id: deliveries[1], status: 'PENDING', type: 'webhook.test' });
  });
});

const PARTITIONS_MIGRATION = 'WeeklyPartitions1763870001700';

describe('The migration to weekly partitions', () => {
  let db: DataSource;

  // The migrations that came later change these tables too: this spec is about the one to weekly partitions alone.
  beforeAll(async () => {
    db = await databaseMigratedTo('partition_migration', PARTITIONS_MIGRATION);
  });
  afterAll(() => db.destroy());

  const snapshot = () =>
    db.query(`SELECT
      (SELECT string_agg(h::text, ',' ORDER BY id) FROM action_history h) AS history,
      (SELECT string_agg(e::text, ',' ORDER BY id) FROM webhook_events e) AS events,
      (SELECT string_agg((d.id, d.event_id, d.status, d.created_at)::text, ',' ORDER BY id) FROM webhook_deliveries d) AS deliveries,
      (SELECT count(*)::int FROM webhook_deliveries) AS delivery_count,
      (SELECT string_agg(DISTINCT relkind::text, ',') FROM pg_class WHERE relname IN ('action_history', 'webhook_events', 'webhook_deliveries')) AS kind`);

  it('keeps every row of the history and the outbox down and up again', async () => {
    await db.query(`INSERT INTO tenants (id) VALUES ('default') ON CONFLICT DO NOTHING`);
    await db.query(`INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data)
      VALUES ('00000000-0000-4000-8000-000000000001', 'default', 'HTTP_REQUEST', 'PENDING', now(), now(), now(), '{}')`);
    await db.query(`INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at)
      SELECT '00000000-0000-4000-8000-000000000001', 1, 'PENDING', 'PENDING', 0, 'entry ' || d, now() - make_interval(days => d)
      FROM unnest(ARRAY[400, 30, 8, 0]) d`);
    await db.query(`INSERT INTO webhook_subscriptions (id, tenant_id, url, events, secret_ciphertext)
      VALUES ('00000000-0000-4000-8000-000000000002', 'default', 'https://example.com/h', ARRAY['webhook.test'], 'x')`);
    await db.query(`INSERT INTO webhook_events (tenant_id, type, subscription_id, created_at)
      SELECT 'default', 'webhook.test', '00000000-0000-4000-8000-000000000002', now() - make_interval(days => d) FROM unnest(ARRAY[400, 20, 0]) d`);
    const before = (await snapshot())[0];
    expect(before.kind).toBe('p');
    expect(before.delivery_count).toBe(3);

    await db.undoLastMigration({ transaction: 'each' });
    expect((await snapshot())[0]).toEqual({ ...before, kind: 'r' });

    await db.runMigrations({ transaction: 'each' });
    await undoMigrationsAfter(db, PARTITIONS_MIGRATION);
    expect((await snapshot())[0]).toEqual(before);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM ONLY action_history_default`);
    expect(n).toBe(0);
  });
});
