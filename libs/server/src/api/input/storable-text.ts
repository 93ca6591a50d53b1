/** Surrogate halves without their partner: JSON can carry them as `\ud800`, UTF-8 (and so Postgres) cannot. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why Postgres could not store this text as it is (null when it can): text and jsonb refuse
 * U+0000, and UTF-8 has no encoding for an unpaired surrogate.
 */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate (\\uD800–\\uDFFF)';
  return null;
}
