import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `paused_from`: while an action is paused, the first occurrence that does not start until it is
 * resumed (null when it is not paused). Claims, the promoter and the overdue sweep leave a PENDING
 * row at or after that occurrence alone.
 */
export class Pause1763870001000 implements MigrationInterface {
  name = 'Pause1763870001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN paused_from integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN paused_from`);
  }
}
