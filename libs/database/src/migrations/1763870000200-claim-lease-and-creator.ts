import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A running attempt holds a lease on Postgres's clock (`claimed_until`, renewed while it runs)
 * under a fencing token (`claim_token`), so a takeover never overlaps a live attempt and a
 * stale holder's outcome is refused. `api_key_id` records which key created the action: its
 * secret signs the action's outbound calls.
 */
export class ClaimLeaseAndCreator1763870000200 implements MigrationInterface {
  name = 'ClaimLeaseAndCreator1763870000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN claim_token uuid, ADD COLUMN claimed_until timestamptz, ADD COLUMN api_key_id varchar(64)`);
    await queryRunner.query(`UPDATE actions SET claimed_until = updated_at + interval '30 seconds' WHERE status = 'IN_PROGRESS'`);
    await queryRunner.query(`DROP INDEX idx_actions_in_progress`);
    // Finding attempts whose worker died: an IN_PROGRESS claim whose lease ran out.
    await queryRunner.query(`CREATE INDEX idx_actions_claim_expiry ON actions (claimed_until) WHERE status = 'IN_PROGRESS'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX idx_actions_claim_expiry`);
    await queryRunner.query(`CREATE INDEX idx_actions_in_progress ON actions (updated_at) WHERE status = 'IN_PROGRESS'`);
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN claim_token, DROP COLUMN claimed_until, DROP COLUMN api_key_id`);
  }
}
