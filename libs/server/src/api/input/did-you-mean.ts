/** Levenshtein distance between two short names (field names: a few dozen characters at most). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** Shared leading characters that make a name a likely slip whatever follows (`executeAt` for `executionTime`). */
const SHARED_START = 5;

/**
 * The known name `unknown` most likely misspells, or null: of those within a third of their length
 * (at least 2) by edit distance, or that start with the same 5 characters, the closest (case ignored).
 */
export function closestName(unknown: string, known: readonly string[]): string | null {
  const given = unknown.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const lower = name.toLowerCase();
    const distance = editDistance(given, lower);
    const close = distance <= Math.max(2, Math.floor(name.length / 3)) || (given.length >= SHARED_START && lower.startsWith(given.slice(0, SHARED_START)));
    if (close && name !== unknown && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}
