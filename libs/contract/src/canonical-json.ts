/**
 * JSON text with object keys sorted at every depth and no whitespace: two values that mean the same
 * give the same text however they were serialised, stored or read back. What a `GRPC` action's
 * signature covers, since its receiver gets the message as protobuf, not as the action's JSON.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
