import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `attempts_before_redelivery`: the attempts a webhook delivery had made when it was last
 * redelivered, so that a redelivery's retries follow WEBHOOK_BACKOFF_DELAYS_MS from its start
 * while `attempts` (and so each attempt's job id) keeps counting.
 */
export class RedeliveryRetries1763870001300 implements MigrationInterface {
  name = 'RedeliveryRetries1763870001300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN attempts_before_redelivery integer NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN attempts_before_redelivery`);
  }
}
