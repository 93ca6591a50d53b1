import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `data` and `metadata` become `json`, which keeps the text it is given, so an action's keys come
 * back, and an `HTTP_REQUEST` body goes out, in the order the client sent them (`jsonb` sorts them).
 * The snapshot of the action that a webhook event carries is `json` for the same reason. Rows
 * stored before keep the order `jsonb` gave them. Both tables are rewritten, under an exclusive lock.
 */
export class DataAsSent1763870001920 implements MigrationInterface {
  name = 'DataAsSent1763870001920';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE actions ALTER COLUMN data TYPE json USING data::json,
        ALTER COLUMN metadata DROP DEFAULT,
        ALTER COLUMN metadata TYPE json USING metadata::json,
        ALTER COLUMN metadata SET DEFAULT '{}'::json`);
    await queryRunner.query(`ALTER TABLE webhook_events ALTER COLUMN action TYPE json USING action::json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_events ALTER COLUMN action TYPE jsonb USING action::jsonb`);
    await queryRunner.query(`
      ALTER TABLE actions ALTER COLUMN data TYPE jsonb USING data::jsonb,
        ALTER COLUMN metadata DROP DEFAULT,
        ALTER COLUMN metadata TYPE jsonb USING metadata::jsonb,
        ALTER COLUMN metadata SET DEFAULT '{}'::jsonb`);
  }
}
