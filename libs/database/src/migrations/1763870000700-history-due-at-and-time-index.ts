import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's last-hour chart reads the history by time: `due_at` records, on each claim
 * entry, when the attempt was due, so firing lag (claim time − due time) comes from Postgres;
 * `idx_action_history_at` keeps the last hour a short index range however long the history is.
 * The index is built without blocking writes to a large history, hence no transaction.
 */
export class HistoryDueAtAndTimeIndex1763870000700 implements MigrationInterface {
  name = 'HistoryDueAtAndTimeIndex1763870000700';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE action_history ADD COLUMN IF NOT EXISTS due_at timestamptz`);
    // A build interrupted half-way leaves an invalid index behind; drop it so a rerun builds it whole.
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_action_history_at`);
    await queryRunner.query(`CREATE INDEX CONCURRENTLY idx_action_history_at ON action_history (at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_action_history_at`);
    await queryRunner.query(`ALTER TABLE action_history DROP COLUMN IF EXISTS due_at`);
  }
}
