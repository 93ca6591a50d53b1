/** The cron fields Punctual reads, in order, with what each takes (besides `*`, lists, ranges and steps). */
const FIELDS = [
  { name: 'second', min: 0, max: 59, takes: '0–59' },
  { name: 'minute', min: 0, max: 59, takes: '0–59' },
  { name: 'hour', min: 0, max: 23, takes: '0–23' },
  { name: 'day-of-month', min: 1, max: 31, takes: '1–31, ? (any), L (last day), nW (weekday nearest the nth), LW (last weekday)' },
  { name: 'month', min: 1, max: 12, takes: '1–12 or JAN–DEC' },
  {
    name: 'day-of-week',
    min: 0,
    max: 7,
    takes: '0–7 (0 and 7 are Sunday) or SUN–SAT, ? (any), nL (last of the month), n#k (kth of the month), + first (and the day of month)',
  },
] as const;

/** The shorthands Punctual reads, and what each stands for. */
export const CRON_ALIASES: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * SUN',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const WHAT_IS_READ = '5 fields (minute hour day-of-month month day-of-week), 6 (second first) or one of ' + Object.keys(CRON_ALIASES).join(', ');

/** Characters of a field beyond digits and `* , - /`: names, and the day fields' own marks. */
const OWN_MARKS: Readonly<Record<string, RegExp>> = {
  'day-of-month': /^[0-9*,/?LW-]+$/i,
  month: /^[0-9A-Z*,/-]+$/i,
  'day-of-week': /^\+?[0-9A-Z*,/?#-]+$/i,
};
const NUMBERS_ONLY = /^[0-9*,/-]+$/;

/** The words each field may hold (case ignored); letters that spell none of them are refused. */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  'day-of-month': ['L', 'W', 'LW'],
  month: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  'day-of-week': ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'L'],
};

/**
 * Why `expression` is not a cron expression Punctual reads, in terms of what it reads, naming the
 * field and quoting its value as given; null when its shape is right (the parser may still refuse
 * what this does not look into, in its own words).
 */
export function cronSyntaxProblem(expression: string): string | null {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@'))
    return trimmed.toLowerCase() in CRON_ALIASES ? null : `"${trimmed}" is not a shorthand Punctual reads; it reads ${WHAT_IS_READ}`;
  const parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) return `it has ${parts.length} field${parts.length === 1 ? '' : 's'}; Punctual reads ${WHAT_IS_READ}`;
  const fields = parts.length === 5 ? FIELDS.slice(1) : FIELDS;
  for (const [index, field] of fields.entries()) {
    const problem = fieldProblem(parts[index], field);
    if (problem) return `${field.name} "${parts[index]}" ${problem}; ${field.name} takes ${field.takes}, *, lists a,b, ranges a-b and steps */n`;
  }
  return null;
}

function fieldProblem(value: string, field: (typeof FIELDS)[number]): string | null {
  if (!(OWN_MARKS[field.name] ?? NUMBERS_ONLY).test(value)) return 'holds characters Punctual does not read there';
  const words = WORDS[field.name] ?? [];
  // A weekday's name may carry the L of "last in the month" (FRIL).
  const known = (letters: string) =>
    words.includes(letters) || (field.name === 'day-of-week' && /^[A-Z]{3}L$/.test(letters) && words.includes(letters.slice(0, 3)));
  const word = (value.match(/[A-Z]+/gi) ?? []).find((letters) => !known(letters.toUpperCase()));
  if (word !== undefined) return `holds "${word}", which is not a word Punctual reads there`;
  for (const item of value.replace(/^\+/, '').split(',')) {
    const [range, step, ...more] = item.split('/');
    if (more.length > 0 || (step !== undefined && !/^[1-9]\d*$/.test(step))) return `has a step that is not a whole number of at least 1 ("${item}")`;
    const [start, nth] = range.split('#');
    if (nth !== undefined && !/^[1-5]$/.test(nth)) return `asks for the ${nth}th weekday of a month ("${item}"); # takes 1–5`;
    const ends = start.split('-');
    const numbers = ends.flatMap((end) => (/^\d+/.exec(end) ?? []).map(Number));
    const outside = numbers.find((n) => n < field.min || n > field.max);
    if (outside !== undefined) return `names ${outside}, outside ${field.min}–${field.max}`;
    if (ends.length === 2 && numbers.length === 2 && numbers[0] > numbers[1]) return `has a range that runs backwards ("${range}")`;
  }
  return null;
}
