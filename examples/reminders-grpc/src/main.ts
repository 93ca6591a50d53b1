import { PunctualError } from '@punctual/client';
import { Reminders } from './reminders';

const USAGE =
  'Usage: reminders schedule <invoiceId> <first ISO time> | show <actionId> | upcoming | hold <actionId> | resume <actionId> | stop <actionId>';

/** One command of the reminders app, run against Punctual over gRPC; prints its answer as one line of JSON. */
async function main([command, ...args]: string[]): Promise<unknown> {
  const reminders = new Reminders({
    punctualAddress: required('PUNCTUAL_GRPC_ADDRESS'),
    keyId: required('PUNCTUAL_KEY_ID'),
    secret: required('PUNCTUAL_SECRET'),
    reminderUrl: process.env.REMINDER_URL ?? 'https://reminders.example.com/due',
  });
  try {
    switch (command) {
      case 'schedule':
        return await reminders.schedule(args[0], new Date(args[1]));
      case 'show':
        return await reminders.show(args[0]);
      case 'upcoming':
        return await reminders.upcoming();
      case 'hold':
        return await reminders.hold(args[0]);
      case 'resume':
        return await reminders.resume(args[0]);
      case 'stop':
        return await reminders.stop(args[0]);
      default:
        throw new Error(USAGE);
    }
  } finally {
    await reminders.close();
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

main(process.argv.slice(2)).then(
  (answer) => console.log(JSON.stringify(answer)),
  (error: unknown) => {
    // A refusal prints Punctual's error body, as the API sent it, and exits 2.
    if (error instanceof PunctualError) {
      console.log(JSON.stringify(error.body));
      process.exit(2);
    }
    console.error((error as Error).message);
    process.exit(1);
  },
);
