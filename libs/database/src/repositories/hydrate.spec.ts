import { setFlagsFromString } from 'node:v8';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { ActionEntity } from '../entities/action.entity';
import { hydrate } from './hydrate';

// V8's own answer to "is this object still in fast mode?", for functions compiled after the flag is set.
setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax compiles only in code made after the flag
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

describe('hydrate (real Postgres)', () => {
  const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  beforeAll(() => dataSource.initialize());
  afterAll(() => dataSource.destroy());

  /** A full `actions` row as Postgres returns it, without storing it. */
  async function row(): Promise<Record<string, unknown>> {
    const [selected] = await dataSource.query(
      `SELECT $1::uuid AS id, 'HTTP_REQUEST' AS action, 'PENDING' AS status, now() AS execution_time, now() AS next_attempt_at,
              now() AS schedule_anchor, '{"url":"https://example.com/"}'::jsonb AS data, '{}'::jsonb AS metadata, false AS repeat,
              NULL AS frequency, NULL AS cron, NULL AS timezone, 0 AS execution_remainder, NULL::timestamptz AS end_at,
              NULL::jsonb AS retry_policy, 'RUN_ONCE' AS misfire_policy, 1 AS occurrence, 0 AS retry_count, NULL AS last_error,
              0 AS revision, NULL::uuid AS claim_token, NULL::timestamptz AS claimed_until, NULL AS callback_url, 'key' AS api_key_id,
              'key' AS data_key_id, NULL AS callback_key_id, NULL::timestamptz AS cancel_requested_at, NULL::timestamptz AS finished_at,
              now() AS created_at, now() AS updated_at`,
      [randomUUID()],
    );
    return selected as Record<string, unknown>;
  }

  it('makes an entity of the class with each column under its property name', async () => {
    const raw = await row();
    const action = hydrate<ActionEntity>(dataSource.getMetadata(ActionEntity), raw);
    expect(action).toBeInstanceOf(ActionEntity);
    expect(action).toMatchObject({ id: raw.id, action: 'HTTP_REQUEST', executionRemainder: 0, apiKeyId: 'key', data: { url: 'https://example.com/' } });
    expect(action.executionTime).toBeInstanceOf(Date);
  });

  it('leaves a column the row does not hold undefined', async () => {
    const partial = await row();
    delete partial.last_error;
    expect(hydrate<ActionEntity>(dataSource.getMetadata(ActionEntity), partial).lastError).toBeUndefined();
  });

  it('keeps the entity in fast mode, so that reading and copying it stay cheap', async () => {
    const action = hydrate<ActionEntity>(dataSource.getMetadata(ActionEntity), await row());
    expect(hasFastProperties(action)).toBe(true);
    expect(hasFastProperties({ ...action, status: 'COMPLETED' })).toBe(true);
  });
});
