import { readFileSync } from 'node:fs';
import { getCACertificates } from 'node:tls';

/**
 * The CAs a GRPC action with `tls` trusts: Node's bundled ones, the system's store, and the
 * deployment's own (`GRPC_CA_FILE`, PEM) for targets whose certificates an internal CA signs.
 */
export function grpcRootCertificates(caFile: string | null): Buffer {
  const own = caFile ? [readFileSync(caFile, 'utf8')] : [];
  return Buffer.from([...new Set([...getCACertificates('bundled'), ...getCACertificates('system')]), ...own].join('\n'));
}
