// Global setup runs outside jest's module mapper: resolve the @app/* paths from tsconfig.json.
import 'tsconfig-paths/register';
// Sets the test settings (own database and Redis db) before anything below reads them.
import './test-env';
import { Client } from 'pg';
import { migrate } from '../libs/database/src/migrate';

/** Creates and migrates the test database once per run; specs empty the tables they use. */
export default function globalSetup(): Promise<void> {
  return prepareDatabase(process.env.DATABASE_URL!);
}

export async function prepareDatabase(url: string): Promise<void> {
  await migrate(url);
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('TRUNCATE actions, action_history, idempotency_keys, webhook_subscriptions, webhook_events, webhook_deliveries');
  await client.end();
}
