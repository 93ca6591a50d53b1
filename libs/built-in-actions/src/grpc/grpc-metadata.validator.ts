import { ValidateBy } from 'class-validator';
import { reservedHeaderReason } from '../http-request/sendable-headers.validator';

/** At most this many entries, and this many bytes of names and values together (servers refuse larger header blocks). */
export const MAX_METADATA_ENTRIES = 32;
export const MAX_METADATA_BYTES = 8 * 1024;

/** HTTP/2 headers that frame every gRPC call: gRPC sets them, a server would misread a call that set them too. */
const TRANSPORT_HEADERS = ['content-type', 'te', 'user-agent', 'host', 'authority', 'connection', 'keep-alive', 'proxy-connection', 'upgrade'];

/** Why metadata may not have this name, or null; names are compared in any letter case, as gRPC does. */
function nameProblem(name: string): string | null {
  const lower = name.toLowerCase();
  if (!/^[0-9a-z_.-]+$/.test(lower)) return 'is not a valid metadata name (letters, digits, "-", "_" and "." only)';
  if (lower.startsWith('grpc-')) return 'is reserved by gRPC';
  if (TRANSPORT_HEADERS.includes(lower)) return 'is set by gRPC on every call';
  if (lower.endsWith('-bin')) return 'is binary metadata, which GRPC actions do not send';
  return reservedHeaderReason(lower);
}

/** The first entry gRPC could not send as given, or that an action may not set, as a message naming it; null when all can be sent. */
export function metadataProblem(metadata: object): string | null {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_ENTRIES) return `metadata has ${entries.length} entries; at most ${MAX_METADATA_ENTRIES} are sent`;
  const seen = new Set<string>();
  let bytes = 0;
  for (const [name, value] of entries) {
    const problem = nameProblem(name);
    if (problem) return `metadata["${name}"] ${problem}`;
    if (seen.has(name.toLowerCase())) return `metadata["${name}"] is named twice (names are compared in any letter case)`;
    seen.add(name.toLowerCase());
    if (typeof value !== 'string') return `metadata["${name}"] must be a string`;
    if (!/^[\x20-\x7e]*$/.test(value)) return `metadata["${name}"] has a value with characters that cannot be sent (printable ASCII only)`;
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  if (bytes > MAX_METADATA_BYTES) return `metadata takes ${bytes} bytes; at most ${MAX_METADATA_BYTES} are sent`;
  return null;
}

/** Metadata names must be gRPC keys an action may set, values printable ASCII strings; the message names the entry. */
export function IsSendableMetadata() {
  return ValidateBy({
    name: 'isSendableMetadata',
    validator: {
      validate: (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && metadataProblem(value) === null,
      defaultMessage: (args) => {
        const value = args!.value as unknown;
        const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
        return (isObject && metadataProblem(value)) || 'metadata must be an object whose values are strings';
      },
    },
  });
}
