import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery attempt's claim gets a fencing token, as an action's has: the attempt renews its lease
 * and records its answer only while the token is still its own.
 */
export class DeliveryClaimToken1763870001980 implements MigrationInterface {
  name = 'DeliveryClaimToken1763870001980';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN claim_token uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN claim_token`);
  }
}
