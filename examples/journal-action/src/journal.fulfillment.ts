import { Module } from '@nestjs/common';
import { appendFile, readFile } from 'node:fs/promises';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, PermanentFulfillmentError } from '@punctual/sdk';
import { JOURNAL_ENTRY, JournalEntryData } from './journal-entry';

/** Appends each occurrence's line to the file JOURNAL_FILE names, once even when an attempt is retried. */
@Fulfillment(JOURNAL_ENTRY, { maxRetries: 3 })
export class JournalFulfillment implements ActionFulfillment<JournalEntryData> {
  async fulfill(data: JournalEntryData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const file = process.env.JOURNAL_FILE;
    if (!file) throw new PermanentFulfillmentError('JOURNAL_FILE is not set in the worker');
    const line = data.lineFor(context.idempotencyKey);
    const journal = await readFile(file, 'utf8').catch(() => '');
    // A retried or re-delivered attempt finds its line already written.
    if (!journal.split('\n').some((written) => written.startsWith(`${context.idempotencyKey} `))) await appendFile(file, line);
    return { note: `journal line ${context.idempotencyKey}` };
  }
}

@Module({ providers: [JournalFulfillment] })
export class JournalModule {}
