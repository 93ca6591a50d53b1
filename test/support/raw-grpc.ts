import { Client, Metadata, ServiceDefinition, credentials } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { GRPC_LOADER_OPTIONS, GRPC_PROTO_FILE, GRPC_SERVICE, RpcMessage } from '@punctual/contract';

/** What a call came back with, as grpc-js gave it: the status (0 when OK), its message and trailers, and the reply. */
export interface GrpcOutcome {
  code: number;
  details: string;
  metadata: Metadata;
  json?: string;
}

const SERVICE = loadSync(GRPC_PROTO_FILE, GRPC_LOADER_OPTIONS)[GRPC_SERVICE] as ServiceDefinition;
const { requestSerialize, responseDeserialize } = SERVICE.Create;

/**
 * A bare gRPC client of `punctual.v1.Punctual`, for what the typed client would never send: any
 * method name, a message as it is (replayed, forged) or bytes that are no message at all.
 */
export class RawGrpc {
  private readonly client: Client;

  /** @param client a channel of the spec's own (compressing messages, say) instead of a plain one. */
  constructor(address: string, client = new Client(address, credentials.createInsecure())) {
    this.client = client;
  }

  call(method: string, message: RpcMessage | Buffer): Promise<GrpcOutcome> {
    const serialize = (value: RpcMessage | Buffer) => (Buffer.isBuffer(value) ? value : requestSerialize(value));
    return new Promise((resolve) => {
      this.client.makeUnaryRequest(`/${GRPC_SERVICE}/${method}`, serialize, responseDeserialize, message, new Metadata(), (error, reply) =>
        resolve(
          error
            ? { code: error.code, details: error.details, metadata: error.metadata }
            : { code: 0, details: '', metadata: new Metadata(), json: (reply as { json: string }).json },
        ),
      );
    });
  }

  close(): void {
    this.client.close();
  }
}
