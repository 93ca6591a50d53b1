/** Longest note or error kept in an action's row and history. */
export const MAX_NOTE_LENGTH = 2000;

/**
 * A note as Postgres can store it: without U+0000 (text and jsonb refuse it) and cut to
 * MAX_NOTE_LENGTH. A receiver's answer goes into notes, so it must never make an outcome unwritable.
 */
export function storableNote(text: string): string {
  const clean = text.replaceAll('\u0000', '\uFFFD');
  return clean.length > MAX_NOTE_LENGTH ? `${clean.slice(0, MAX_NOTE_LENGTH)}…` : clean;
}
