import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lifecycle webhooks as an outbox in Postgres. A state change inserts its `webhook_events` row in
 * the same statement; triggers keep only events someone listens to (a subscription that wants the
 * type, or the action's callback URL) and fan each one out to a `webhook_deliveries` row per
 * target, so an event exists exactly when its change committed. Workers queue and deliver them.
 */
export class LifecycleWebhooks1763870000800 implements MigrationInterface {
  name = 'LifecycleWebhooks1763870000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN callback_url varchar(2048)`);
    await queryRunner.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY,
        url varchar(2048) NOT NULL,
        events text[] NOT NULL,
        action_types text[],
        description varchar(500),
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
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
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE INDEX idx_webhook_events_created ON webhook_events (created_at)`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        subscription_id uuid REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
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
        delivered_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_event ON webhook_deliveries (event_id)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_list ON webhook_deliveries (subscription_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`);
    await queryRunner.query(
      `CREATE INDEX idx_webhook_deliveries_unqueued ON webhook_deliveries (created_at) WHERE status = 'PENDING' AND queued_at IS NULL`,
    );

    // Which subscriptions an event goes to: one rule, used by both triggers.
    await queryRunner.query(`
      CREATE FUNCTION punctual_webhook_wants(s webhook_subscriptions, e webhook_events) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN e.subscription_id IS NOT NULL THEN s.id = e.subscription_id
                    ELSE e.type = ANY (s.events) AND (s.action_types IS NULL OR e.action_type = ANY (s.action_types)) END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION punctual_webhook_event_has_target() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.callback_url IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE punctual_webhook_wants(s, NEW)) THEN
          RETURN NEW;
        END IF;
        RETURN NULL; -- nobody listens: nothing is stored
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_events_keep_wanted BEFORE INSERT ON webhook_events
      FOR EACH ROW EXECUTE FUNCTION punctual_webhook_event_has_target()`);
    await queryRunner.query(`
      CREATE FUNCTION punctual_webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (event_id, subscription_id, url)
        SELECT NEW.id, s.id, s.url FROM webhook_subscriptions s WHERE punctual_webhook_wants(s, NEW);
        IF NEW.callback_url IS NOT NULL THEN
          INSERT INTO webhook_deliveries (event_id, subscription_id, url) VALUES (NEW.id, NULL, NEW.callback_url);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events
      FOR EACH ROW EXECUTE FUNCTION punctual_webhook_fan_out()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_events`);
    await queryRunner.query(`DROP FUNCTION punctual_webhook_fan_out()`);
    await queryRunner.query(`DROP FUNCTION punctual_webhook_event_has_target()`);
    await queryRunner.query(`DROP FUNCTION punctual_webhook_wants(webhook_subscriptions, webhook_events)`);
    await queryRunner.query(`DROP TABLE webhook_subscriptions`);
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN callback_url`);
  }
}
