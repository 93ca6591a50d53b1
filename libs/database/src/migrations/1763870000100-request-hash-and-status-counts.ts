import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 1. Idempotency keys remember a hash of the body they were first used with, so that a repeat
 *    with a different body can be refused instead of answered with an unrelated action.
 * 2. `GET /actions/stats` reads counts kept by triggers instead of counting the table.
 *
 * The counts are deltas `(action, status, delta)`, appended by statement-level triggers (one
 * row per action type and status that a statement changed, aggregated over its transition
 * tables) and never updated in place: concurrent writers only ever insert, so they never wait
 * on one hot counter row. Stats sum the deltas; a compaction folds them back into one row per
 * pair (`ActionCountsRepository.compact`). TRUNCATE fires no row triggers, so it empties the
 * counts through its own trigger.
 */
export class RequestHashAndStatusCounts1763870000100 implements MigrationInterface {
  name = 'RequestHashAndStatusCounts1763870000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Null for keys stored before this migration: they expire within 24 h and match any body meanwhile.
    await queryRunner.query(`ALTER TABLE idempotency_keys ADD COLUMN request_hash varchar(64)`);

    await queryRunner.query(`
      CREATE TABLE action_counts (
        action varchar(64) NOT NULL,
        status varchar(16) NOT NULL,
        delta bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION count_action_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO action_counts (action, status, delta)
          SELECT action, status, count(*) FROM new_rows GROUP BY action, status;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO action_counts (action, status, delta)
          SELECT action, status, -count(*) FROM old_rows GROUP BY action, status;
        ELSE
          -- Most updates (a patch, a lease renewal) change no status: they net to zero and add nothing.
          INSERT INTO action_counts (action, status, delta)
          SELECT action, status, sum(delta) FROM (
            SELECT action, status, 1 AS delta FROM new_rows
            UNION ALL
            SELECT action, status, -1 AS delta FROM old_rows
          ) changes
          GROUP BY action, status HAVING sum(delta) <> 0;
        END IF;
        RETURN NULL;
      END $$`);
    // TRUNCATE rather than DELETE: its exclusive lock waits for a compaction in flight, whose
    // folded rows a DELETE (with an older snapshot) would not see and leave behind.
    await queryRunner.query(`
      CREATE FUNCTION reset_action_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE action_counts;
        RETURN NULL;
      END $$`);
    // Creating the triggers locks out writers until this migration commits, so the initial
    // count below and the deltas that follow it neither miss nor double-count a row.
    await queryRunner.query(`
      CREATE TRIGGER actions_count_inserts AFTER INSERT ON actions
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_action_changes()`);
    await queryRunner.query(`
      CREATE TRIGGER actions_count_updates AFTER UPDATE ON actions
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_action_changes()`);
    await queryRunner.query(`
      CREATE TRIGGER actions_count_deletes AFTER DELETE ON actions
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_action_changes()`);
    await queryRunner.query(`
      CREATE TRIGGER actions_count_truncates AFTER TRUNCATE ON actions
      FOR EACH STATEMENT EXECUTE FUNCTION reset_action_counts()`);
    await queryRunner.query(`
      INSERT INTO action_counts (action, status, delta)
      SELECT action, status, count(*) FROM actions GROUP BY action, status`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER actions_count_truncates ON actions`);
    await queryRunner.query(`DROP TRIGGER actions_count_deletes ON actions`);
    await queryRunner.query(`DROP TRIGGER actions_count_updates ON actions`);
    await queryRunner.query(`DROP TRIGGER actions_count_inserts ON actions`);
    await queryRunner.query(`DROP FUNCTION reset_action_counts()`);
    await queryRunner.query(`DROP FUNCTION count_action_changes()`);
    await queryRunner.query(`DROP TABLE action_counts`);
    await queryRunner.query(`ALTER TABLE idempotency_keys DROP COLUMN request_hash`);
  }
}
