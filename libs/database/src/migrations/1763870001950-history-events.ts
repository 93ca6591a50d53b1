import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How an attempt ended, as history entries told it before they recorded it: leaving IN_PROGRESS
 * for COMPLETED, FAILED, NO_ACTION or IN_PROGRESS (its worker died) says it; back to PENDING is a
 * success only when what follows (the action's next entry, else the action itself) is at a later
 * occurrence; an attempt that ended a requested cancellation left a CANCELED row whose retry count
 * is 0 only after a success. An entry to NO_ACTION ends the due occurrence even when nothing ran.
 */
const DERIVED_OUTCOME = `CASE
    WHEN h.to_status = 'COMPLETED' THEN 'succeeded'
    WHEN h.to_status = 'NO_ACTION' THEN 'no_action'
    WHEN h.to_status = 'CANCELED' THEN
      CASE WHEN (SELECT a.retry_count FROM actions a WHERE a.id = h.action_id) = 0 THEN 'succeeded' ELSE 'failed' END
    WHEN h.to_status = 'PENDING' AND COALESCE(
      (SELECT n.occurrence FROM action_history n WHERE n.action_id = h.action_id AND n.id > h.id ORDER BY n.id LIMIT 1),
      (SELECT a.occurrence FROM actions a WHERE a.id = h.action_id)
    ) > h.occurrence THEN 'succeeded'
    ELSE 'failed'
  END`;

/** An entry the lifecycle wrote for an occurrence that did not run, before the entry of the event that skipped it. */
const SKIP_ENTRY = `h.from_status = 'PENDING' AND h.to_status = 'PENDING' AND h.attempt = 0 AND h.note LIKE 'skipped: %'`;

/** The event of an entry of its own, from its statuses, its outcome and the note each event writes. */
const DERIVED_EVENT = `CASE
    WHEN h.from_status IS NULL THEN 'created'
    WHEN h.from_status = 'PENDING' AND h.to_status = 'IN_PROGRESS' AND h.attempt > 0 THEN 'claimed'
    WHEN h.outcome = 'no_action' THEN 'typeUnknown'
    WHEN h.outcome = 'succeeded' THEN 'succeeded'
    WHEN h.outcome = 'failed' AND (h.to_status = 'IN_PROGRESS' OR h.note LIKE 'attempt % was interrupted (worker lost)%') THEN 'interrupted'
    WHEN h.outcome = 'failed' THEN 'failed'
    WHEN h.note LIKE '% is a date of calendar %' THEN 'calendarDate'
    WHEN h.note LIKE 'skip of the next %' THEN 'skipRequested'
    WHEN h.note = 'manual retry' THEN 'retriedManually'
    WHEN h.note LIKE 'paused%' THEN 'paused'
    WHEN h.note LIKE 'resumed%' THEN 'resumed'
    WHEN h.note LIKE 'cancel requested%' OR h.note LIKE 'canceled%' THEN 'canceled'
    WHEN h.note LIKE 'updated %' THEN 'patched'
    ELSE 'unattributed'
  END`;

/**
 * Each history entry records the lifecycle event that wrote it (`event`) and, on the entry that
 * ends an attempt, how it ended (`outcome`), so that readers count what was decided instead of
 * working it out again from statuses and the entries around them. Entries written before are
 * given both by that old working-out, once, here. Adding the columns without a default changes no
 * partition's rows; the backfill updates rows in place (`at`, the partition key, is not touched),
 * and NOT NULL is then checked on each partition, including those made later from the parent.
 */
export class HistoryEvents1763870001950 implements MigrationInterface {
  name = 'HistoryEvents1763870001950';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE action_history ADD COLUMN event varchar(24), ADD COLUMN outcome varchar(16)`);
    await queryRunner.query(
      `UPDATE action_history h SET outcome = ${DERIVED_OUTCOME} WHERE (h.from_status = 'IN_PROGRESS' AND h.attempt > 0) OR h.to_status = 'NO_ACTION'`,
    );
    await queryRunner.query(`UPDATE action_history h SET event = ${DERIVED_EVENT} WHERE (${SKIP_ENTRY}) IS NOT TRUE`);
    // A skipped occurrence's entry was written by the event whose own entry follows it in the same statement.
    await queryRunner.query(
      `UPDATE action_history h SET event = COALESCE((SELECT n.event FROM action_history n
          WHERE n.action_id = h.action_id AND n.id > h.id AND n.event IS NOT NULL ORDER BY n.id LIMIT 1), 'unattributed')
        WHERE (${SKIP_ENTRY}) IS TRUE`,
    );
    await queryRunner.query(`ALTER TABLE action_history ALTER COLUMN event SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE action_history DROP COLUMN outcome, DROP COLUMN event`);
  }
}
