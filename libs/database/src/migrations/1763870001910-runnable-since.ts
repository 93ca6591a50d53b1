import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `runnable_since`: when an action's next attempt became runnable (its creation, or the last
 * change that gave it a new due time). A claim records the later of it and `next_attempt_at` as
 * the time the attempt was due, so a past executionTime is not counted as firing lag. Rows stored
 * before read as runnable since 1970, so their lag counts from their due time, as it did; adding
 * the column with that constant rewrites no row. A row inserted without it afterwards is runnable
 * from its insertion.
 */
export class RunnableSince1763870001910 implements MigrationInterface {
  name = 'RunnableSince1763870001910';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN runnable_since timestamptz NOT NULL DEFAULT '1970-01-01T00:00:00Z'`);
    await queryRunner.query(`ALTER TABLE actions ALTER COLUMN runnable_since SET DEFAULT now()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN runnable_since`);
  }
}
