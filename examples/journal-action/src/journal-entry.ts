import { IsString, Matches, MaxLength } from 'class-validator';
import { defineActionType } from '@punctual/sdk';

/** The data of a JOURNAL_ENTRY action: one line of text, checked by the API before the action is stored. */
export class JournalEntryData {
  @IsString()
  @MaxLength(200)
  @Matches(/^[^\r\n]*$/, { message: 'text must be a single line' })
  text: string;

  /** The journal line of one occurrence: the worker hands `fulfill` an instance, so methods work. */
  lineFor(idempotencyKey: string): string {
    return `${idempotencyKey} ${this.text}\n`;
  }
}

export const JOURNAL_ENTRY = defineActionType({ type: 'JOURNAL_ENTRY', dataClass: JournalEntryData });
