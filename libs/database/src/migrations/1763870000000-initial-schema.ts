import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763870000000 implements MigrationInterface {
  name = 'InitialSchema1763870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE actions (
        id uuid PRIMARY KEY,
        action varchar(64) NOT NULL,
        status varchar(16) NOT NULL
          CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'NO_ACTION')),
        execution_time timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        schedule_anchor timestamptz NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        repeat boolean NOT NULL DEFAULT false,
        frequency varchar(16) CHECK (frequency IN ('TEN_MINS', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY')),
        execution_remainder integer CHECK (execution_remainder >= 0),
        misfire_policy varchar(16) NOT NULL DEFAULT 'RUN_ONCE' CHECK (misfire_policy IN ('RUN_ONCE', 'RUN_ALL', 'SKIP')),
        occurrence integer NOT NULL DEFAULT 1,
        retry_count integer NOT NULL DEFAULT 0,
        last_error text,
        revision integer NOT NULL DEFAULT 0,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Listing is keyset-paginated by (execution_time, id), optionally filtered by status or type.
    await queryRunner.query(`CREATE INDEX idx_actions_list ON actions (execution_time, id)`);
    await queryRunner.query(`CREATE INDEX idx_actions_status_list ON actions (status, execution_time, id)`);
    await queryRunner.query(`CREATE INDEX idx_actions_action_list ON actions (action, execution_time, id)`);
    // Finding work that is due: only PENDING rows, by when their next attempt is due.
    await queryRunner.query(`CREATE INDEX idx_actions_due ON actions (next_attempt_at, id) WHERE status = 'PENDING'`);
    // Finding attempts whose worker died (a stale IN_PROGRESS claim).
    await queryRunner.query(`CREATE INDEX idx_actions_in_progress ON actions (updated_at) WHERE status = 'IN_PROGRESS'`);
    // Retention purge of finished actions.
    await queryRunner.query(`CREATE INDEX idx_actions_finished ON actions (finished_at) WHERE finished_at IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE action_history (
        id bigserial PRIMARY KEY,
        action_id uuid NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        from_status varchar(16),
        to_status varchar(16) NOT NULL,
        occurrence integer NOT NULL,
        attempt integer NOT NULL,
        note text
      )`);
    await queryRunner.query(`CREATE INDEX idx_action_history_action ON action_history (action_id, id)`);

    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        api_key_id varchar(64) NOT NULL,
        key varchar(255) NOT NULL,
        action_id uuid NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_key_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idx_idempotency_keys_action ON idempotency_keys (action_id)`);
    await queryRunner.query(`CREATE INDEX idx_idempotency_keys_created ON idempotency_keys (created_at)`);

    // Replay protection while Redis is unreachable: nonces accepted then, until they expire.
    await queryRunner.query(`
      CREATE TABLE accepted_nonces (
        key_id varchar(64) NOT NULL,
        nonce varchar(128) NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_id, nonce)
      )`);
    await queryRunner.query(`CREATE INDEX idx_accepted_nonces_expires ON accepted_nonces (expires_at)`);

    // How far ahead the promoter has queued PENDING actions into Redis (one row).
    await queryRunner.query(`
      CREATE TABLE scheduler_state (
        id smallint PRIMARY KEY CHECK (id = 1),
        promoted_until timestamptz NOT NULL
      )`);
    await queryRunner.query(`INSERT INTO scheduler_state (id, promoted_until) VALUES (1, '-infinity')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE scheduler_state`);
    await queryRunner.query(`DROP TABLE accepted_nonces`);
    await queryRunner.query(`DROP TABLE idempotency_keys`);
    await queryRunner.query(`DROP TABLE action_history`);
    await queryRunner.query(`DROP TABLE actions`);
  }
}
