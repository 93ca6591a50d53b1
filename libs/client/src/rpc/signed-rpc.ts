import { ClientProxy, ClientProxyFactory } from '@nestjs/microservices';
import { TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { RpcMessage, TransportUrl, signedMessage } from '@punctual/contract';
import { PunctualError, PunctualTimeoutError, asErrorBody } from '../punctual-error';
import { TransportSettings, microserviceOptions } from '../transport-options';

const DEFAULT_TIMEOUT_MS = 10_000;

export interface RpcSendOptions {
  /** Sign with another key than the client's. */
  keyId?: string;
  secret?: string;
  /** More headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, string>;
  /** Send this text as the body instead of the JSON of `body`. */
  rawBody?: string;
  /** Leave the signature headers off. */
  unsigned?: boolean;
}

export interface SignedRpcOptions extends TransportSettings {
  /**
   * The transport's URL (the client then owns the connection and closes it), or a `ClientProxy` of the caller's.
   * On a NATS server shared by tenants, the URL carries the tenant's NATS user (`nats://user:password@host:port`),
   * and `inboxPrefix` the prefix that user may subscribe to. On RabbitMQ, the URL names the tenant's user and
   * the virtual host (`amqp://user:password@host:port/vhost`), and `?queue=` the API's queue when not `punctual`.
   */
  transport: string | TransportUrl | ClientProxy;
  keyId: string;
  secret: string;
  /** How long a call waits for its reply; then it fails with `PunctualTimeoutError`. Default 10 s. */
  timeoutMs?: number;
}

/**
 * Signed messages to the API over a NestJS transport. The body travels as JSON text and is
 * signed byte for byte (METHOD `RPC`, PATH the pattern), exactly as the API verifies it. A refusal
 * arrives as `PunctualError` with the status its HTTP twin would answer.
 */
export class SignedRpc {
  private readonly proxy: ClientProxy;
  private readonly ownsProxy: boolean;

  constructor(private readonly options: SignedRpcOptions) {
    this.ownsProxy = !(options.transport instanceof ClientProxy);
    this.proxy =
      options.transport instanceof ClientProxy
        ? options.transport
        : ClientProxyFactory.create(microserviceOptions(options.transport, { declareQueue: false, ...options }));
  }

  /** The signed message for `body` on `pattern`, as `send` puts it on the wire. */
  message(pattern: string, body: unknown, options: RpcSendOptions = {}): RpcMessage {
    return rpcMessage(this.options, pattern, body, options);
  }

  async send<T>(pattern: string, body: unknown, options: RpcSendOptions = {}): Promise<T> {
    return this.sendMessage<T>(pattern, this.message(pattern, body, options));
  }

  /** Sends a message as it is (a replayed or tampered one, in tests). */
  async sendMessage<T>(pattern: string, message: unknown): Promise<T> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return await firstValueFrom(this.proxy.send<T>(pattern, message).pipe(timeout(timeoutMs)));
    } catch (error) {
      if (error instanceof TimeoutError) throw new PunctualTimeoutError(pattern, timeoutMs);
      if (exceedsNatsMaxPayload(error)) {
        // NATS refuses to carry a message over its server's max_payload (1 MB by default): nothing was sent.
        throw new PunctualError({
          statusCode: 413,
          error: 'Payload Too Large',
          message: `The message exceeds the NATS server's max_payload; nothing was sent`,
        });
      }
      const body = asErrorBody(error);
      if (body) throw new PunctualError(body);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.ownsProxy) await this.proxy.close();
  }
}

/** The message for `body` on `pattern`, signed with `key` unless `options` say otherwise: the same over a NestJS transport and gRPC. */
export function rpcMessage(key: { keyId: string; secret: string }, pattern: string, body: unknown, options: RpcSendOptions = {}): RpcMessage {
  const text = options.rawBody ?? JSON.stringify(body);
  const signed = signedMessage({ keyId: options.keyId ?? key.keyId, secret: options.secret ?? key.secret }, pattern, text);
  return { headers: { ...(options.unsigned ? {} : signed.headers), ...options.headers }, body: text };
}

/** NATS v3 refuses, before sending, a message over the server's max_payload with an InvalidArgumentError naming it. */
function exceedsNatsMaxPayload(error: unknown): boolean {
  return error instanceof Error && error.name === 'InvalidArgumentError' && error.message.includes('max_payload');
}
