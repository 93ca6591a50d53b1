import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each tenant's MESSAGE actions may reach: `{ "transports": [...], "patterns": [...] }` as an
 * operator set it, or null when none did (the tenant `default` then reaches every transport and
 * pattern, any other tenant none). Read with the tenant's limits, so no index is needed.
 */
export class TenantMessaging1763870001800 implements MigrationInterface {
  name = 'TenantMessaging1763870001800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tenants ADD COLUMN messaging jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tenants DROP COLUMN messaging`);
  }
}
