import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The history and the webhook outbox, the tables that grow with every run, become tables
 * partitioned by week (UTC): retention drops a week whole instead of deleting its rows one by one.
 * A week keeps at most seven days beyond RETENTION_DAYS (14 by default) while a read by id probes
 * one index per week kept, a handful by default. Each table has a DEFAULT partition, so an insert
 * never fails for a missing week.
 *
 * - `action_history` by `at`; its primary key becomes `(id, at)`.
 * - `webhook_events` by `created_at`; its primary key becomes `(id, created_at)`.
 * - `webhook_deliveries` by `event_created_at`, its event's `created_at`, so a delivery lives in
 *   its event's week and the two are dropped together; its primary key becomes
 *   `(id, event_created_at)`. The foreign key to the event goes (a week is dropped as a whole,
 *   and a row-level purge deletes an event's deliveries with it).
 *
 * `punctual_create_week_partitions(any_day)` is the one place that makes a week: the week of `any_day`,
 * for all three tables in one transaction, rows of that week moved out of the DEFAULT partitions
 * first. Existing rows are copied into the weeks they belong to.
 */
export class WeeklyPartitions1763870001700 implements MigrationInterface {
  name = 'WeeklyPartitions1763870001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_events_fan_out ON webhook_events`);
    await queryRunner.query(`DROP TRIGGER webhook_events_keep_wanted ON webhook_events`);
    // Takes the old table's row type; made again below for the new one.
    await queryRunner.query(`DROP FUNCTION punctual_webhook_wants(webhook_subscriptions, webhook_events)`);
    for (const table of ['action_history', 'webhook_events', 'webhook_deliveries']) {
      await queryRunner.query(`ALTER TABLE ${table} RENAME TO ${table}_unpartitioned`);
    }

    await queryRunner.query(`
      CREATE TABLE action_history (
        id bigint NOT NULL DEFAULT nextval('action_history_id_seq'),
        action_id uuid NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        from_status varchar(16),
        to_status varchar(16) NOT NULL,
        occurrence integer NOT NULL,
        attempt integer NOT NULL,
        note text,
        due_at timestamptz
      ) PARTITION BY RANGE (at)`);
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        type varchar(32) NOT NULL,
        action_id uuid,
        action_type varchar(64),
        occurrence integer,
        attempt integer,
        note text,
        action jsonb,
        callback_url varchar(2048),
        api_key_id varchar(64),
        subscription_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        reason varchar(16),
        tenant_id varchar(64) NOT NULL
      ) PARTITION BY RANGE (created_at)`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL,
        event_created_at timestamptz NOT NULL,
        subscription_id uuid,
        url varchar(2048) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'PENDING',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        queued_at timestamptz,
        claimed_until timestamptz,
        last_status_code integer,
        last_error text,
        -- Milliseconds, as the page cursor carries them.
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        delivered_at timestamptz,
        attempts_before_redelivery integer NOT NULL DEFAULT 0
      ) PARTITION BY RANGE (event_created_at)`);
    for (const table of ['action_history', 'webhook_events', 'webhook_deliveries']) {
      await queryRunner.query(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
    }

    // Weeks start on Monday 00:00 UTC, whatever the session's time zone.
    await queryRunner.query(`
      CREATE FUNCTION punctual_create_week_partitions(any_day date) RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE
        week_start date := date_trunc('week', any_day::timestamp)::date;
        lower_bound timestamptz := week_start::timestamp AT TIME ZONE 'UTC';
        upper_bound timestamptz := (week_start + 7)::timestamp AT TIME ZONE 'UTC';
        partitioned record;
        week_table text;
        created integer := 0;
      BEGIN
        FOR partitioned IN SELECT * FROM (VALUES ('action_history', 'at'), ('webhook_events', 'created_at'),
                                                 ('webhook_deliveries', 'event_created_at')) AS t(parent, key) LOOP
          week_table := partitioned.parent || '_p' || to_char(week_start, 'YYYYMMDD');
          CONTINUE WHEN to_regclass(week_table) IS NOT NULL;
          -- A week cannot be attached while the DEFAULT partition holds rows of it: they move first.
          EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', week_table, partitioned.parent);
          EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
            partitioned.parent || '_default', partitioned.key, partitioned.key, week_table) USING lower_bound, upper_bound;
          EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', partitioned.parent, week_table, lower_bound, upper_bound);
          created := created + 1;
        END LOOP;
        RETURN created;
      END $$`);
    // The weeks of the rows there are, through the next two (the worker keeps creating them ahead).
    await queryRunner.query(`
      SELECT punctual_create_week_partitions(week::date)
      FROM generate_series(
        date_trunc('week', least(
          (SELECT min(at) FROM action_history_unpartitioned),
          (SELECT min(created_at) FROM webhook_events_unpartitioned),
          now()) AT TIME ZONE 'UTC'),
        (now() AT TIME ZONE 'UTC') + interval '14 days', interval '7 days') week`);

    await queryRunner.query(`
      INSERT INTO action_history (id, action_id, at, from_status, to_status, occurrence, attempt, note, due_at)
      SELECT id, action_id, at, from_status, to_status, occurrence, attempt, note, due_at FROM action_history_unpartitioned`);
    await queryRunner.query(`
      INSERT INTO webhook_events (id, type, action_id, action_type, occurrence, attempt, note, action, callback_url, api_key_id, subscription_id, created_at, reason, tenant_id)
      SELECT id, type, action_id, action_type, occurrence, attempt, note, action, callback_url, api_key_id, subscription_id, created_at, reason, tenant_id
      FROM webhook_events_unpartitioned`);
    await queryRunner.query(`
      INSERT INTO webhook_deliveries (id, event_id, event_created_at, subscription_id, url, status, attempts, next_attempt_at, queued_at, claimed_until,
        last_status_code, last_error, created_at, delivered_at, attempts_before_redelivery)
      SELECT d.id, d.event_id, e.created_at, d.subscription_id, d.url, d.status, d.attempts, d.next_attempt_at, d.queued_at, d.claimed_until,
        d.last_status_code, d.last_error, d.created_at, d.delivered_at, d.attempts_before_redelivery
      FROM webhook_deliveries_unpartitioned d JOIN webhook_events_unpartitioned e ON e.id = d.event_id`);
    await queryRunner.query(`ALTER SEQUENCE action_history_id_seq OWNED BY action_history.id`);
    await queryRunner.query(`DROP TABLE webhook_deliveries_unpartitioned, webhook_events_unpartitioned, action_history_unpartitioned`);

    // Built once the rows are in. A primary key of a partitioned table holds its partition key.
    await queryRunner.query(`ALTER TABLE action_history ADD PRIMARY KEY (id, at)`);
    await queryRunner.query(`ALTER TABLE action_history ADD FOREIGN KEY (action_id) REFERENCES actions (id) ON DELETE CASCADE`);
    await queryRunner.query(`CREATE INDEX idx_action_history_action ON action_history (action_id, id)`);
    await queryRunner.query(`CREATE INDEX idx_action_history_at ON action_history (at)`);
    await queryRunner.query(`ALTER TABLE webhook_events ADD PRIMARY KEY (id, created_at)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_events_created ON webhook_events (created_at)`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD PRIMARY KEY (id, event_created_at)`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions (id) ON DELETE CASCADE`);
    await this.deliveryIndexes(queryRunner);
    await this.outboxTriggers(queryRunner, 'NEW.id, NEW.created_at, ', 'event_id, event_created_at, subscription_id, url');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_events_fan_out ON webhook_events`);
    await queryRunner.query(`DROP TRIGGER webhook_events_keep_wanted ON webhook_events`);
    await queryRunner.query(`DROP FUNCTION punctual_webhook_wants(webhook_subscriptions, webhook_events)`);
    await queryRunner.query(`DROP FUNCTION punctual_create_week_partitions(date)`);
    for (const table of ['action_history', 'webhook_events', 'webhook_deliveries']) {
      await queryRunner.query(`ALTER TABLE ${table} RENAME TO ${table}_partitioned`);
    }

    await queryRunner.query(`CREATE TABLE action_history (LIKE action_history_partitioned INCLUDING DEFAULTS)`);
    await queryRunner.query(`INSERT INTO action_history SELECT * FROM action_history_partitioned`);
    await queryRunner.query(`CREATE TABLE webhook_events (LIKE webhook_events_partitioned INCLUDING DEFAULTS)`);
    await queryRunner.query(`INSERT INTO webhook_events SELECT * FROM webhook_events_partitioned`);
    await queryRunner.query(`CREATE TABLE webhook_deliveries (LIKE webhook_deliveries_partitioned INCLUDING DEFAULTS)`);
    await queryRunner.query(`INSERT INTO webhook_deliveries SELECT * FROM webhook_deliveries_partitioned`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN event_created_at`);
    await queryRunner.query(`ALTER SEQUENCE action_history_id_seq OWNED BY action_history.id`);
    await queryRunner.query(`DROP TABLE webhook_deliveries_partitioned, webhook_events_partitioned, action_history_partitioned`);

    await queryRunner.query(`ALTER TABLE action_history ADD PRIMARY KEY (id)`);
    await queryRunner.query(`ALTER TABLE action_history ADD FOREIGN KEY (action_id) REFERENCES actions (id) ON DELETE CASCADE`);
    await queryRunner.query(`CREATE INDEX idx_action_history_action ON action_history (action_id, id)`);
    await queryRunner.query(`CREATE INDEX idx_action_history_at ON action_history (at)`);
    await queryRunner.query(`ALTER TABLE webhook_events ADD PRIMARY KEY (id)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_events_created ON webhook_events (created_at)`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD PRIMARY KEY (id)`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD FOREIGN KEY (event_id) REFERENCES webhook_events (id) ON DELETE CASCADE`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions (id) ON DELETE CASCADE`);
    await this.deliveryIndexes(queryRunner);
    await this.outboxTriggers(queryRunner, 'NEW.id, ', 'event_id, subscription_id, url');
  }

  private async deliveryIndexes(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_event ON webhook_deliveries (event_id)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_list ON webhook_deliveries (subscription_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`);
    await queryRunner.query(
      `CREATE INDEX idx_webhook_deliveries_unqueued ON webhook_deliveries (created_at) WHERE status = 'PENDING' AND queued_at IS NULL`,
    );
  }

  /** The outbox's rule and triggers as 1763870001500 left them, on the table there is now; `event` is what a delivery takes from its event. */
  private async outboxTriggers(queryRunner: QueryRunner, event: string, columns: string): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION punctual_webhook_wants(s webhook_subscriptions, e webhook_events) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN e.subscription_id IS NOT NULL THEN s.id = e.subscription_id
                    ELSE s.tenant_id = e.tenant_id AND e.type = ANY (s.events)
                      AND (s.action_types IS NULL OR e.action_type = ANY (s.action_types)) END
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION punctual_webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (${columns})
        SELECT ${event}s.id, s.url FROM webhook_subscriptions s WHERE punctual_webhook_wants(s, NEW);
        IF NEW.callback_url IS NOT NULL THEN
          INSERT INTO webhook_deliveries (${columns}) VALUES (${event}NULL, NEW.callback_url);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_events_keep_wanted BEFORE INSERT ON webhook_events
      FOR EACH ROW EXECUTE FUNCTION punctual_webhook_event_has_target()`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events
      FOR EACH ROW EXECUTE FUNCTION punctual_webhook_fan_out()`);
  }
}
