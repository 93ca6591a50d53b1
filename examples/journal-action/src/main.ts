import 'reflect-metadata';
import { PunctualServerOptions, migrateDatabase, runApi, runWorker } from '@punctual/server';
import { JOURNAL_ENTRY } from './journal-entry';
import { JournalModule } from './journal.fulfillment';
import { SIGNED_PING, SignedPingModule } from './signed-ping';

/** The same additions for the API (which validates their data) and the worker (which runs them). */
const journal: PunctualServerOptions = { actionTypes: [JOURNAL_ENTRY, SIGNED_PING], fulfillmentModules: [JournalModule, SignedPingModule] };

const role = process.argv[2];
if (role === 'api') runApi(journal);
else if (role === 'worker') runWorker(journal);
else if (role === 'migrate') {
  // The database runApi and runWorker use: DATABASE_URL from the environment or .env.
  migrateDatabase().then(
    ({ database, applied }) =>
      console.log(applied.length ? `Applied to ${database}: ${applied.join(', ')}` : `Database schema of ${database} is up to date`),
    (error: Error) => {
      console.error(`Migration failed: ${error.message}`);
      process.exit(1);
    },
  );
} else {
  console.error('Usage: node dist/main.js api|worker|migrate');
  process.exit(2);
}
