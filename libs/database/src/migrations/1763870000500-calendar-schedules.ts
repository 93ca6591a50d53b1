import { MigrationInterface, QueryRunner } from 'typeorm';

/** Cron schedules in IANA zones, schedules bounded by an end time, and a retry policy per action. */
export class CalendarSchedules1763870000500 implements MigrationInterface {
  name = 'CalendarSchedules1763870000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE actions
        ADD COLUMN cron varchar(200),
        ADD COLUMN timezone varchar(64),
        ADD COLUMN end_at timestamptz,
        ADD COLUMN retry_policy jsonb`);
    // Repeating actions stored before zones existed ran in UTC.
    await queryRunner.query(`UPDATE actions SET timezone = 'UTC' WHERE repeat`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN cron, DROP COLUMN timezone, DROP COLUMN end_at, DROP COLUMN retry_policy`);
  }
}
