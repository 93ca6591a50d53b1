/**
 * Polls `probe` every `intervalMs` until it returns a truthy value, and returns it; fails with
 * `what` after `timeoutMs`. Tests wait on a signal this way instead of sleeping.
 */
export async function waitUntil<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
