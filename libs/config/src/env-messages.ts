import { z } from 'zod';

/** How a value reads in a message: the way the boot errors have always named what they got. */
function kind(input: unknown): string {
  if (typeof input === 'number') return Number.isNaN(input) ? 'nan' : Number.isInteger(input) ? 'integer' : 'float';
  if (input === null) return 'null';
  return typeof input;
}

const quoted = (values: readonly unknown[]) => values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(' | ');

/**
 * The wording of the built-in checks in boot errors ("PORT Expected number, received nan",
 * "MAX_RETRIES Number must be greater than or equal to 0"), kept as operators and their scripts
 * know it across Zod majors. Checks with a message of their own keep it; anything else falls
 * back to Zod's wording.
 */
export const envIssueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return `Expected integer, received ${kind(issue.input)}`;
      return `Expected ${issue.expected}, received ${kind(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'number') return `Number must be ${issue.inclusive ? 'greater than or equal to' : 'greater than'} ${String(issue.minimum)}`;
      if (issue.origin === 'string') return `String must contain ${issue.inclusive ? 'at least' : 'over'} ${String(issue.minimum)} character(s)`;
      return undefined;
    case 'too_big':
      if (issue.origin === 'number') return `Number must be ${issue.inclusive ? 'less than or equal to' : 'less than'} ${String(issue.maximum)}`;
      if (issue.origin === 'string') return `String must contain ${issue.inclusive ? 'at most' : 'under'} ${String(issue.maximum)} character(s)`;
      return undefined;
    case 'invalid_value':
      return `Invalid enum value. Expected ${quoted(issue.values)}, received '${String(issue.input)}'`;
    default:
      return undefined;
  }
};
