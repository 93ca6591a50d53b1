import { DataSource } from 'typeorm';
import { CLAIM_SQL, dataSourceOptions } from '@app/database';

const BURST = 20_000;
const BATCH = 50;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads or writes the `actions` table, as "node type (index)". */
function accessesOfActions(node: PlanNode): string[] {
  const own = node['Relation Name'] === 'actions' ? [`${node['Node Type']}${node['Index Name'] ? ` (${node['Index Name']})` : ''}`] : [];
  return [...own, ...(node.Plans ?? []).flatMap(accessesOfActions)];
}

/**
 * The claim is a prepared statement, so whatever plan a connection settles on stays. On a table a
 * burst has just filled (statistics still from when it was empty: a new deployment's first busy
 * minute) it must still reach each row through its primary key, never by scanning what is due:
 * that made every batch cost as much as the whole backlog.
 */
describe('The claim statement reads actions by id, whatever the statistics say', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    // TRUNCATE resets the table's size statistics; the burst that follows is not analyzed.
    await db.query('TRUNCATE actions CASCADE');
    await db.query(
      `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data, metadata, repeat, misfire_policy, occurrence, retry_count, revision)
       SELECT gen_random_uuid(), 'default', 'HTTP_REQUEST', 'PENDING', now(), now(), now(), '{}', '{}', false, 'RUN_ONCE', 1, 0, 0 FROM generate_series(1, $1)`,
      [BURST],
    );
  });
  afterAll(async () => {
    await db.query('TRUNCATE actions CASCADE');
    await db.destroy();
  });

  it.each(['force_generic_plan', 'force_custom_plan'])('with %s, after a burst of 20,000 due actions', async (mode) => {
    const [{ reltuples }] = await db.query(`SELECT reltuples FROM pg_class WHERE relname = 'actions'`);
    expect(Number(reltuples)).toBeLessThan(BURST / 10); // the statistics are stale, as intended
    const ids: string[] = (await db.query(`SELECT id FROM actions LIMIT $1`, [BATCH])).map((row: { id: string }) => row.id);
    const runner = db.createQueryRunner();
    try {
      await runner.query(`SET plan_cache_mode = ${mode}`);
      await runner.query(`PREPARE claim_plan AS ${CLAIM_SQL}`);
      // EXECUTE takes its values inline: array literals of the ids (UUIDs, nothing to escape).
      const array = (values: readonly (string | number)[]) => `'{${values.join(',')}}'`;
      const tokens = ids.map(() => '00000000-0000-4000-8000-000000000000');
      const [
        {
          'QUERY PLAN': [plan],
        },
      ] = await runner.query(
        `EXPLAIN (FORMAT JSON) EXECUTE claim_plan(${array(ids)}, ${array(ids.map(() => 0))}, ${array(ids.map(() => 'HTTP_REQUEST'))}, ${array(tokens)}, 30000)`,
      );
      const accesses = accessesOfActions(plan.Plan);
      expect(accesses.filter((access) => !['Index Scan (actions_pkey)', 'Tid Scan', 'ModifyTable'].includes(access))).toEqual([]);
      expect(accesses).toContain('Index Scan (actions_pkey)');
    } finally {
      await runner.query('DEALLOCATE ALL');
      await runner.release();
    }
  });
});
