import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `dst_policy`: how a repeating action's wall-clock schedule meets daylight-saving changes
 * (`{ "gap": "shift" | "skip", "overlap": "first" | "last" | "both" }`); null for a one-off action.
 * Existing repeating actions get the rule they ran by so far.
 */
export class DstPolicy1763870001200 implements MigrationInterface {
  name = 'DstPolicy1763870001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN dst_policy jsonb`);
    await queryRunner.query(`UPDATE actions SET dst_policy = '{"gap": "shift", "overlap": "first"}' WHERE repeat`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN dst_policy`);
  }
}
