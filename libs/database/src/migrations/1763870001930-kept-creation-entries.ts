import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention keeps an action's creation entry as long as the action: a dropped week's creation
 * entries move to the DEFAULT partition of the history, and its row-by-row purge leaves them there.
 * They are the oldest rows of that partition, so the purge reads its rows through an index without
 * them, and does not step over every kept creation entry in each batch.
 */
export class KeptCreationEntries1763870001930 implements MigrationInterface {
  name = 'KeptCreationEntries1763870001930';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX idx_action_history_default_purgeable ON action_history_default (at) WHERE from_status IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX idx_action_history_default_purgeable`);
  }
}
