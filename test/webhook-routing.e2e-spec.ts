import { DataSource, QueryRunner } from 'typeorm';
import { dataSourceOptions } from '../libs/database/src/data-source-options';
import { WEBHOOK_ROUTING_FUNCTIONS, WEBHOOK_ROUTING_TRIGGERS } from '../libs/database/src/schema/webhook-routing';

/** The schema the file's functions are made in, to be read back as Postgres keeps them. */
const FILE_SCHEMA = 'webhook_routing_file';

/** The routing functions of `schema` as Postgres keeps them: signature, language, volatility and body. */
function routingFunctions(runner: QueryRunner, schema: string): Promise<object[]> {
  return runner.query(
    `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS arguments, pg_get_function_result(p.oid) AS result,
        l.lanname AS language, p.provolatile AS volatility, p.prosrc AS body
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
      WHERE n.nspname = $1 AND p.proname LIKE 'punctual\\_webhook\\_%' ORDER BY p.proname`,
    [schema],
  );
}

/** The triggers on `webhook_events` (not their clones on its partitions), as Postgres writes them out. */
async function liveTriggers(runner: QueryRunner): Promise<string[]> {
  const rows: { definition: string }[] = await runner.query(
    `SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t
      WHERE t.tgrelid = 'public.webhook_events'::regclass AND NOT t.tgisinternal ORDER BY t.tgname`,
  );
  return rows.map((row) => row.definition.replace('ON public.webhook_events', 'ON webhook_events'));
}

/** Who receives an event is read in one file: the database runs exactly what it says. */
describe('Webhook routing', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
    await db.initialize();
  });
  afterAll(() => db.destroy());

  /** Runs `inspect` in a transaction that is rolled back: nothing it makes stays. */
  async function rolledBack<T>(inspect: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      return await inspect(runner);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  /** The live functions and triggers, and the file's functions as Postgres keeps them. */
  async function compared(runner: QueryRunner) {
    const live = { functions: await routingFunctions(runner, 'public'), triggers: await liveTriggers(runner) };
    await runner.query(`CREATE SCHEMA ${FILE_SCHEMA}`);
    await runner.query(`SET LOCAL search_path = ${FILE_SCHEMA}, public`);
    for (const definition of WEBHOOK_ROUTING_FUNCTIONS) await runner.query(definition);
    const file = { functions: await routingFunctions(runner, FILE_SCHEMA), triggers: [...WEBHOOK_ROUTING_TRIGGERS].sort(byTriggerName) };
    return { live, file };
  }

  const byTriggerName = (a: string, b: string) => a.split(' ')[2].localeCompare(b.split(' ')[2]);

  it("runs the file's functions and triggers, and no others", async () => {
    const { live, file } = await rolledBack(compared);
    expect(file.functions).toHaveLength(3);
    expect(live).toEqual(file);
  });

  it('tells a definition changed outside the file', async () => {
    const { live, file } = await rolledBack(async (runner) => {
      await runner.query(`CREATE OR REPLACE FUNCTION punctual_webhook_wants(s webhook_subscriptions, e webhook_events) RETURNS boolean
        LANGUAGE sql STABLE AS $$ SELECT e.type = ANY (s.events) $$`);
      await runner.query(`DROP TRIGGER webhook_events_keep_wanted ON webhook_events`);
      return compared(runner);
    });
    expect(live.functions).not.toEqual(file.functions);
    expect(live.triggers).toEqual([file.triggers[0]]);
  });
});
