import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calendars: named sets of local dates that the schedules naming them skip. `actions.calendar`
 * refers to one; the foreign key refuses to delete a calendar an action still names, atomically
 * with any create or change naming it. Its index serves that check, so a delete does not scan
 * the actions table.
 */
export class HolidayCalendars1763870001400 implements MigrationInterface {
  name = 'HolidayCalendars1763870001400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE calendars (
      name varchar(64) PRIMARY KEY,
      description varchar(1000),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE calendar_dates (
      calendar varchar(64) NOT NULL REFERENCES calendars (name) ON DELETE CASCADE,
      day date NOT NULL,
      PRIMARY KEY (calendar, day)
    )`);
    await queryRunner.query(`ALTER TABLE actions ADD COLUMN calendar varchar(64) REFERENCES calendars (name) ON DELETE RESTRICT`);
    await queryRunner.query(`CREATE INDEX actions_calendar ON actions (calendar) WHERE calendar IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE actions DROP COLUMN calendar`);
    await queryRunner.query(`DROP TABLE calendar_dates`);
    await queryRunner.query(`DROP TABLE calendars`);
  }
}
