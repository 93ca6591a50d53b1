const originals = new WeakMap<object, object>();

/** Keys that class-transformer trips on or that Nest's validation pipe deletes in place, at any depth. */
const GUARDED_KEYS = new Set(['constructor', '__proto__', 'prototype']);

/**
 * Parsed JSON that class-transformer can walk without crashing, and that Nest's pipe can strip
 * without touching the client's original. class-transformer guesses a nested object's class from
 * `value.constructor`, so a client's `{"constructor": 1}` makes it call `new 1()` (a TypeError,
 * answered 500); Nest's pipe deletes `constructor`, `prototype` and `__proto__` keys in place. When
 * the value holds none of these keys it is returned as it is: nothing would crash or be deleted,
 * and most bodies are spared a copy. Otherwise it is a deep copy that leaves out `constructor`
 * (which class-transformer skips anyway) and `__proto__` (which an assignment would turn into a
 * prototype), each copied object remembering its original: see `originalOf`.
 */
export function transformSafeCopy<T>(value: T): T {
  return holdsGuardedKey(value) ? deepCopy(value) : value;
}

function holdsGuardedKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsGuardedKey);
  // for…in lists an own "__proto__" key of parsed JSON too; plain JSON objects inherit no enumerable key.
  for (const key in value) {
    if (GUARDED_KEYS.has(key) || holdsGuardedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function deepCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'constructor' && key !== '__proto__') (copy as Record<string, unknown>)[key] = deepCopy(child);
  }
  originals.set(copy, value);
  return copy as T;
}

/** The object a `transformSafeCopy` copy was made from (the object itself when it is no copy). */
export function originalOf<T extends object>(copy: T): T {
  return (originals.get(copy) as T | undefined) ?? copy;
}

/** A key of the input that its class instance does not have; `parent` is the path to it (`items.2`, or '' at the top). */
export interface KeyLeftOut {
  parent: string;
  key: string;
}

/**
 * Keys of `sent` that class-transformer (or the copy) left out of `instance`, at the top and in
 * nested instances: it skips every key that names an `Object.prototype` member (`constructor`,
 * `toString`, …), so whitelist validation never sees them. No class declares such a field, so
 * each is an unknown field to refuse. Values kept as sent (the same object) are not looked into.
 */
export function keysLeftOut(instance: unknown, sent: unknown, parent = ''): KeyLeftOut[] {
  if (typeof sent !== 'object' || sent === null || typeof instance !== 'object' || instance === null || instance === sent) return [];
  return Object.keys(sent).flatMap((key) =>
    Object.prototype.hasOwnProperty.call(instance, key)
      ? keysLeftOut((instance as Record<string, unknown>)[key], (sent as Record<string, unknown>)[key], parent ? `${parent}.${key}` : key)
      : [{ parent, key }],
  );
}
