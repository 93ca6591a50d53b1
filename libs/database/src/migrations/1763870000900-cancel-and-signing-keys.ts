import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 1. `CANCELED`, a final status, and `cancel_requested_at`: a cancellation asked for while the
 *    current occurrence runs or is locked takes effect when that occurrence ends.
 * 2. Whose secret signs: `data_key_id` is the API key that last set `data` (it signs the action's
 *    outbound calls), `callback_key_id` the one that last set `callback_url` (it signs the events
 *    sent there). Existing rows keep signing with the key that created them.
 */
export class CancelAndSigningKeys1763870000900 implements MigrationInterface {
  name = 'CancelAndSigningKeys1763870000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP CONSTRAINT actions_status_check`);
    await queryRunner.query(
      `ALTER TABLE actions ADD CONSTRAINT actions_status_check CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'NO_ACTION', 'CANCELED'))`,
    );
    await queryRunner.query(
      `ALTER TABLE actions ADD COLUMN cancel_requested_at timestamptz, ADD COLUMN data_key_id varchar(64), ADD COLUMN callback_key_id varchar(64)`,
    );
    await queryRunner.query(`UPDATE actions SET data_key_id = api_key_id, callback_key_id = api_key_id WHERE api_key_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM actions WHERE status = 'CANCELED'`);
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN cancel_requested_at, DROP COLUMN data_key_id, DROP COLUMN callback_key_id`);
    await queryRunner.query(`ALTER TABLE actions DROP CONSTRAINT actions_status_check`);
    await queryRunner.query(
      `ALTER TABLE actions ADD CONSTRAINT actions_status_check CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'NO_ACTION'))`,
    );
  }
}
