import { PunctualClient } from '@punctual/client';
import { JournalActionTypes } from './action-types';

/** `node dist/schedule-entry.js "text" [delay-ms]`: schedules a JOURNAL_ENTRY over the signed HTTP API and prints the action. */
async function main(): Promise<void> {
  const [text = 'hello from a custom action type', delayMs = '0'] = process.argv.slice(2);
  const punctual = PunctualClient.overHttp<JournalActionTypes>({
    baseUrl: process.env.PUNCTUAL_URL ?? 'http://127.0.0.1:3000',
    keyId: process.env.PUNCTUAL_KEY_ID ?? 'dev',
    secret: process.env.PUNCTUAL_SECRET ?? '',
  });
  const action = await punctual.create({ action: 'JOURNAL_ENTRY', executionTime: Date.now() + Number(delayMs), data: { text } });
  console.log(JSON.stringify(action));
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
