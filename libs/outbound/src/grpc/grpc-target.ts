/** Where a GRPC action calls: a host name or IP address (IPv6 in brackets) and a port. */
export interface GrpcTarget {
  /** Without brackets: `api.example.com`, `10.0.0.5`, `::1`. */
  readonly host: string;
  readonly port: number;
  /** As given: `api.example.com:443`, `[::1]:50051`. */
  readonly text: string;
}

const TARGET = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?):(\d{1,5})$/i;

/** `host:port` read strictly (no scheme, no path, a port from 1 to 65535), or null. */
export function parseGrpcTarget(text: string): GrpcTarget | null {
  const match = TARGET.exec(text);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) return null;
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port, text };
}

/** The target as a URL, which the egress policy judges like an HTTP_REQUEST URL of the same host. */
export function grpcTargetUrl(target: GrpcTarget): URL {
  return new URL(`http://${target.text}`);
}
