import { Metadata, Server, ServerCredentials, ServerUnaryCall, ServiceDefinition, sendUnaryData, status, loadPackageDefinition } from '@grpc/grpc-js';
import { PackageDefinition, loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The service GRPC specs call, `punctual.test.Orders`. */
export const ORDERS_PROTO = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'grpc', 'orders.proto');

export interface ShipCall {
  readonly request: { order_id?: string; quantity?: number };
  readonly metadata: Record<string, string>;
  readonly tls: boolean;
}

/** What `Ship` answers next, after `delayMs`: OK with a tracking code, or an error status. */
export type ShipAnswer = ({ code: status.OK; tracking: string } | { code: status; details: string }) & { delayMs?: number };

/**
 * A gRPC server in the spec's process serving `punctual.test.Orders` and the reflection service,
 * on a plaintext port and on a TLS port whose certificate (for localhost and 127.0.0.1) a CA
 * made by `openssl` signs. `Ship` answers from `answers` per order id, OK when none is queued.
 * Without reflection, clients must know the service from its proto.
 */
export class GrpcTestServer {
  readonly calls: ShipCall[] = [];
  readonly answers = new Map<string, ShipAnswer[]>();
  private readonly server = new Server();
  // A server of its own for TLS: its handler knows which port a call came to.
  private readonly tlsServer = new Server();
  private readonly dir = mkdtempSync(join(tmpdir(), 'punctual-grpc-'));
  plainPort = 0;
  tlsPort = 0;

  /** @param reflection which reflection services it serves: both versions, only the older `v1alpha`, or none. */
  constructor(private readonly reflection: 'all' | 'v1alpha' | 'none' = 'all') {}

  /** The CA's certificate, for GRPC_CA_FILE. */
  get caFile(): string {
    return join(this.dir, 'ca.pem');
  }

  async start(): Promise<this> {
    const definition = loadSync(ORDERS_PROTO, { keepCase: true });
    const orders = (loadPackageDefinition(definition) as any).punctual.test.Orders;
    this.addReflection(definition, this.server);
    this.server.addService(orders.service, { Ship: this.ship(false), Track: () => undefined });
    this.plainPort = await bindTo(this.server, ServerCredentials.createInsecure());
    this.makeCertificates();
    const key = readFileSync(join(this.dir, 'server.key'));
    const cert = readFileSync(join(this.dir, 'server.pem'));
    this.tlsServer.addService(orders.service, { Ship: this.ship(true), Track: () => undefined });
    this.addReflection(definition, this.tlsServer);
    this.tlsPort = await bindTo(this.tlsServer, ServerCredentials.createSsl(null, [{ private_key: key, cert_chain: cert }]));
    return this;
  }

  callsFor(orderId: string): ShipCall[] {
    return this.calls.filter((call) => call.request.order_id === orderId);
  }

  async stop(): Promise<void> {
    for (const server of [this.server, this.tlsServer]) server.forceShutdown();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private addReflection(definition: PackageDefinition, server: Server): void {
    if (this.reflection === 'none') return;
    const wanted = (service: ServiceDefinition) => this.reflection === 'all' || Object.values(service)[0].path.startsWith('/grpc.reflection.v1alpha.');
    new ReflectionService(definition).addToServer({
      addService: (service, implementation) => (wanted(service) ? server.addService(service, implementation) : undefined),
    });
  }

  private ship(tls: boolean) {
    return (call: ServerUnaryCall<ShipCall['request'], unknown>, callback: sendUnaryData<unknown>) => {
      this.calls.push({ request: call.request, metadata: textOf(call.metadata), tls });
      const answer: ShipAnswer = this.answers.get(call.request.order_id ?? '')?.shift() ?? { code: status.OK, tracking: `T-${call.request.order_id}` };
      const reply = () =>
        'tracking' in answer ? callback(null, { tracking_code: answer.tracking }) : callback({ code: answer.code, details: answer.details });
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    };
  }

  private makeCertificates(): void {
    const at = (name: string) => join(this.dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1', '-subj', '/CN=Punctual test CA');
    writeFileSync(at('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=localhost');
    openssl(
      'x509',
      '-req',
      '-in',
      at('server.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('server.pem'),
      '-days',
      '1',
      '-extfile',
      at('server.ext'),
    );
  }
}

function bindTo(server: Server, credentials: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (error, port) => (error ? reject(error) : resolve(port))));
}

function textOf(metadata: Metadata): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata.getMap()).map(([name, value]) => [name, String(value)]));
}
