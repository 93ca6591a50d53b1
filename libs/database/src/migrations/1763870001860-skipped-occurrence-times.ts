import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One `action.occurrence_skipped` event tells of every occurrence one change skipped for one
 * reason: `skipped` holds the earliest of their scheduled times (ISO strings, up to 100) and
 * `skipped_count` how many there were in all. Both are null for every other event.
 */
export class SkippedOccurrenceTimes1763870001860 implements MigrationInterface {
  name = 'SkippedOccurrenceTimes1763870001860';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_events ADD COLUMN skipped jsonb, ADD COLUMN skipped_count integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_events DROP COLUMN skipped, DROP COLUMN skipped_count`);
  }
}
