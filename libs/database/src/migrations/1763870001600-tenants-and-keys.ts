import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenants, with the limits set for each (null: the deployment's default), and the API keys made at
 * run time through the admin API, their secrets encrypted under SECRET_KEY. A revoked key keeps its
 * row, so its id is never given out again and its history still names a key that existed.
 */
export class TenantsAndKeys1763870001600 implements MigrationInterface {
  name = 'TenantsAndKeys1763870001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE tenants (
      id varchar(64) PRIMARY KEY,
      max_active_actions integer,
      create_rate integer,
      max_concurrency integer,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`INSERT INTO tenants (id) SELECT 'default' UNION SELECT DISTINCT tenant_id FROM actions`);
    await queryRunner.query(`CREATE TABLE api_keys (
      key_id varchar(64) PRIMARY KEY,
      tenant_id varchar(64) NOT NULL REFERENCES tenants (id),
      secret_ciphertext text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await queryRunner.query(`CREATE INDEX idx_api_keys_tenant ON api_keys (tenant_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE tenants`);
  }
}
