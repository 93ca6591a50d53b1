import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every action, webhook subscription and event, and calendar belongs to a tenant. What existed
 * before is the default tenant's. The columns keep no default, so a write that forgot its tenant
 * fails instead of landing in the default one. Lists read through indexes that lead with the
 * tenant; a calendar's name is unique within its tenant; the counts behind stats are kept per
 * tenant; a subscription hears only its tenant's events.
 */
export class TenantScope1763870001500 implements MigrationInterface {
  name = 'TenantScope1763870001500';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['actions', 'webhook_subscriptions', 'webhook_events', 'calendars', 'calendar_dates', 'action_counts']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN tenant_id varchar(64) NOT NULL DEFAULT 'default'`);
      await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN tenant_id DROP DEFAULT`);
    }

    await queryRunner.query(`DROP INDEX idx_actions_list, idx_actions_status_list, idx_actions_action_list`);
    await queryRunner.query(`CREATE INDEX idx_actions_list ON actions (tenant_id, execution_time, id)`);
    await queryRunner.query(`CREATE INDEX idx_actions_status_list ON actions (tenant_id, status, execution_time, id)`);
    await queryRunner.query(`CREATE INDEX idx_actions_action_list ON actions (tenant_id, action, execution_time, id)`);
    await queryRunner.query(`CREATE INDEX idx_webhook_subscriptions_tenant ON webhook_subscriptions (tenant_id)`);

    // A calendar is named within its tenant: keys, references and lookups all carry the tenant.
    await queryRunner.query(`ALTER TABLE actions DROP CONSTRAINT actions_calendar_fkey`);
    await queryRunner.query(`ALTER TABLE calendar_dates DROP CONSTRAINT calendar_dates_calendar_fkey, DROP CONSTRAINT calendar_dates_pkey`);
    await queryRunner.query(`ALTER TABLE calendars DROP CONSTRAINT calendars_pkey, ADD PRIMARY KEY (tenant_id, name)`);
    await queryRunner.query(`ALTER TABLE calendar_dates ADD PRIMARY KEY (tenant_id, calendar, day),
      ADD CONSTRAINT calendar_dates_calendar_fkey FOREIGN KEY (tenant_id, calendar) REFERENCES calendars (tenant_id, name) ON DELETE CASCADE`);
    await queryRunner.query(`ALTER TABLE actions ADD CONSTRAINT actions_calendar_fkey
      FOREIGN KEY (tenant_id, calendar) REFERENCES calendars (tenant_id, name) ON DELETE RESTRICT`);
    await queryRunner.query(`DROP INDEX actions_calendar`);
    await queryRunner.query(`CREATE INDEX actions_calendar ON actions (tenant_id, calendar) WHERE calendar IS NOT NULL`);

    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION count_action_changes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO action_counts (tenant_id, action, status, delta)
          SELECT tenant_id, action, status, count(*) FROM new_rows GROUP BY tenant_id, action, status;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO action_counts (tenant_id, action, status, delta)
          SELECT tenant_id, action, status, -count(*) FROM old_rows GROUP BY tenant_id, action, status;
        ELSE
          -- Most updates (a patch, a lease renewal) change no status: they net to zero and add nothing.
          INSERT INTO action_counts (tenant_id, action, status, delta)
          SELECT tenant_id, action, status, sum(delta) FROM (
            SELECT tenant_id, action, status, 1 AS delta FROM new_rows
            UNION ALL
            SELECT tenant_id, action, status, -1 AS delta FROM old_rows
          ) changes
          GROUP BY tenant_id, action, status HAVING sum(delta) <> 0;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION punctual_webhook_wants(s webhook_subscriptions, e webhook_events) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN e.subscription_id IS NOT NULL THEN s.id = e.subscription_id
                    ELSE s.tenant_id = e.tenant_id AND e.type = ANY (s.events)
                      AND (s.action_types IS NULL OR e.action_type = ANY (s.action_types)) END
      $$`);
  }

  async down(): Promise<void> {
    throw new Error('The tenant scope is not undone: every row would lose whose it is');
  }
}
