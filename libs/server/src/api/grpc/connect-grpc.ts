import { readFile } from 'node:fs/promises';
import { ServerCredentials } from '@grpc/grpc-js';
import { INestApplication, Logger } from '@nestjs/common';
import { MicroserviceOptions } from '@nestjs/microservices';
import { GRPC_SERVICE } from '@punctual/contract';
import { PunctualConfig } from '@app/config';
import { PunctualGrpcServer } from './punctual-grpc-server';

/**
 * Serves the message patterns as the gRPC service `punctual.v1.Punctual` on `GRPC_URL`, over TLS
 * when `GRPC_TLS_CERT_FILE` and `GRPC_TLS_KEY_FILE` are set; does nothing when `GRPC_URL` is unset.
 * Started on its own, so it neither waits for nor restarts the NestJS transport `connectRpc` started.
 */
export async function connectGrpc(app: INestApplication): Promise<void> {
  const { address, tls } = app.get(PunctualConfig).grpc;
  if (!address) return;
  const credentials = tls
    ? ServerCredentials.createSsl(null, [{ cert_chain: await readFile(tls.certFile), private_key: await readFile(tls.keyFile) }], false)
    : ServerCredentials.createInsecure();
  await app.connectMicroservice<MicroserviceOptions>({ strategy: new PunctualGrpcServer(address, credentials) }).listen();
  Logger.log(`Serving gRPC ${GRPC_SERVICE} at ${address}${tls ? ' over TLS' : ''}`, 'Bootstrap');
}
