import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 1. `skip_pending`: occurrences an action's owner asked to skip after the one the lock window
 *    covered when asked; they are skipped when that occurrence ends.
 * 2. `webhook_events.reason`: why an `action.occurrence_skipped` event's occurrence did not run.
 * 3. `jitter_ms` and `jitter_seed`: each occurrence runs up to `jitter_ms` after its time, by a
 *    delay the seed fixes for that occurrence.
 */
export class SkipsAndJitter1763870001100 implements MigrationInterface {
  name = 'SkipsAndJitter1763870001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE actions ADD COLUMN skip_pending integer NOT NULL DEFAULT 0, ADD COLUMN jitter_ms integer, ADD COLUMN jitter_seed integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`ALTER TABLE webhook_events ADD COLUMN reason varchar(16)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_events DROP COLUMN reason`);
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN skip_pending, DROP COLUMN jitter_ms, DROP COLUMN jitter_seed`);
  }
}
