import { TRANSPORT_SCHEMES, TransportUrl, parseTransportUrl } from '@punctual/contract';

/** The name of the transport a MESSAGE action uses when it names none. */
export const DEFAULT_MESSAGE_TRANSPORT = 'default';

const TRANSPORT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `name=url,name2=url2` → the named transports MESSAGE actions may use; each bad entry is one problem.
 * A URL holds no comma (passwords in them are percent-encoded), so the list splits safely.
 */
export function parseMessageTransports(raw: string): { transports: Map<string, TransportUrl>; problems: string[] } {
  const transports = new Map<string, TransportUrl>();
  const problems: string[] = [];
  for (const [index, entry] of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .entries()) {
    const separator = entry.indexOf('=');
    const name = entry.slice(0, separator).trim();
    const transport = parseTransportUrl(entry.slice(separator + 1).trim());
    if (separator < 1 || !TRANSPORT_NAME.test(name)) problems.push(`entry ${index + 1} must be name=url with a name of 1 to 64 of A-Z a-z 0-9 _ -`);
    else if (transports.has(name)) problems.push(`transport "${name}" is listed twice`);
    else if (!transport) problems.push(`transport "${name}" must have ${TRANSPORT_SCHEMES}`);
    else transports.set(name, transport);
  }
  return { transports, problems };
}
