import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key made in the console may have its secret shown once more, on the page its form leads to:
 * `reveal_to` names the console session that made it (a digest of its id) and `reveal_until` when
 * that chance ends. Showing the secret clears both, so a reload shows it no more; the secret itself
 * stays only in `secret_ciphertext`.
 */
export class KeyReveals1763870001940 implements MigrationInterface {
  name = 'KeyReveals1763870001940';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN reveal_to text, ADD COLUMN reveal_until timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN reveal_to, DROP COLUMN reveal_until`);
  }
}
