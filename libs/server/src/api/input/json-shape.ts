import { unstorableTextProblem } from './storable-text';

/** Bodies nesting deeper than this are refused before any recursive code (validation, JSON.stringify) walks them. */
export const MAX_JSON_DEPTH = 32;
/** Enough to tell a client what to fix without echoing a huge body back. */
const MAX_PROBLEMS = 10;

/**
 * What in a parsed JSON body cannot be accepted as it is, each naming its path from the root
 * (`items.3.data.note`), or an empty list. Every transport applies it to the bodies it parses,
 * before they reach the DTOs (`parseJsonBody`):
 * - nesting deeper than `MAX_JSON_DEPTH` levels (the root object is level 1);
 * - a key named `__proto__`, which assigning code would turn into a prototype;
 * - text Postgres cannot store (U+0000, unpaired surrogates), in values and in keys;
 * - a number too large for a double (`1e400` parses to Infinity, which JSON would write back as null).
 */
export function jsonShapeProblems(body: unknown): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, path: string, depth: number): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem) problems.push(`${path || 'body'} ${problem}`);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push(`${path || 'body'} must be a finite number`);
    } else if (typeof value === 'object' && value !== null) {
      if (depth > MAX_JSON_DEPTH) {
        problems.push(`${path || 'body'} nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`);
        return;
      }
      for (const [key, child] of Object.entries(value)) {
        const childPath = pathTo(path, key, Array.isArray(value));
        if (key === '__proto__') problems.push(`${childPath}: a key named __proto__ is not accepted`);
        const keyProblem = unstorableTextProblem(key);
        if (keyProblem) problems.push(`${childPath}: the key ${keyProblem}`);
        visit(child, childPath, depth + 1);
      }
    }
  };
  visit(body, '', 1);
  return problems.slice(0, MAX_PROBLEMS);
}

/** `a.b`, `items.3`, or `a["odd key"]` for keys that would not read as one segment. */
function pathTo(parent: string, key: string, inArray: boolean): string {
  if (inArray || /^[A-Za-z_$][\w$]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}
