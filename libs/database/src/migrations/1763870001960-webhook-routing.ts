import { MigrationInterface, QueryRunner } from 'typeorm';
import { WEBHOOK_ROUTING_SQL } from '../schema/webhook-routing';

/**
 * Applies the webhook routing rule from its one file (`schema/webhook-routing.ts`). It restates
 * what `1763870001700` left, so there is nothing to undo: from here on the file, not the
 * migrations that wrote the rule before, is where it is read.
 */
export class WebhookRouting1763870001960 implements MigrationInterface {
  name = 'WebhookRouting1763870001960';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of WEBHOOK_ROUTING_SQL) await queryRunner.query(statement);
  }

  async down(): Promise<void> {
    // The rule before this migration was the same.
  }
}
