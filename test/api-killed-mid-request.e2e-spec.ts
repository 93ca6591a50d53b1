import { randomUUID } from 'node:crypto';
import { ActionResource, GRPC_STATUS, PunctualClient, PunctualError, RPC_PATTERNS, UntypedActionTypes, signedMessage } from '@punctual/client';
import { TEST_KEY, waitUntil } from '@app/testing';
import { API_READY, AppProcess } from './support/app-process';
import { RABBITMQ_USERS, deleteQueues, rabbitUrlAs } from './support/brokers';
import { notificationExample } from './support/fixtures';
import { freePort } from './support/free-port';
import { GrpcOutcome, RawGrpc } from './support/raw-grpc';
import { storedActionsOf } from './support/stored-actions';

jest.setTimeout(180_000);

/** This run's own queue, so that no other run's API takes its requests. */
const QUEUE = `punctual-killed-${randomUUID().slice(0, 8)}`;
const CREATES = 30;

/**
 * An API process killed (SIGKILL) with gRPC and RabbitMQ requests in flight: a gRPC caller gets an
 * error at once rather than waiting for ever, and nothing half done is left (a batch is stored
 * whole or not at all); a RabbitMQ request it had not answered goes to the next API process, and
 * refused there as replayed when the killed one had verified it; sent again with the same Idempotency-Key, it is stored once.
 */
describe('An API process killed mid request over gRPC and RabbitMQ', () => {
  const env = async () => ({
    PORT: await freePort(),
    RPC_TRANSPORT_URL: rabbitUrlAs(RABBITMQ_USERS.punctual, `?queue=${QUEUE}`),
  });
  const processes: AppProcess[] = [];
  afterAll(async () => {
    for (const child of processes) child.kill('SIGKILL');
    await deleteQueues(rabbitUrlAs(RABBITMQ_USERS.punctual), [QUEUE]);
  });

  it('the gRPC caller gets UNAVAILABLE, the batch is whole or absent; every RabbitMQ create is answered by the next process and stored once', async () => {
    const grpcAddress = `127.0.0.1:${await freePort()}`;
    const first = new AppProcess('api', { ...(await env()), GRPC_URL: grpcAddress });
    processes.push(first);
    await first.ready(API_READY, 150_000);

    const run = randomUUID();
    const rabbit = PunctualClient.overRpc<UntypedActionTypes>({
      transport: rabbitUrlAs(RABBITMQ_USERS.teamA, `?queue=${QUEUE}`),
      ...TEST_KEY,
      timeoutMs: 150_000,
    });
    const raw = new RawGrpc(grpcAddress);
    try {
      const answered: (ActionResource | PunctualError)[] = [];
      // The same body each time a key is sent, as an Idempotency-Key asks.
      const bodies = Array.from({ length: CREATES }, () => notificationExample(3_600_000, { metadata: { run } }));
      const create = (i: number) => rabbit.create(bodies[i] as never, { idempotencyKey: `${run}-${i}` });
      const creates = Array.from({ length: CREATES }, (_, i) =>
        create(i).then(
          (action) => {
            answered.push(action);
            return action;
          },
          (error: unknown) => {
            if (!(error instanceof PunctualError)) throw error;
            answered.push(error);
            return error;
          },
        ),
      );
      const batchRun = randomUUID();
      const items = Array.from({ length: 1000 }, () => notificationExample(3_600_000, { metadata: { run: batchRun } }));
      const batch: Promise<GrpcOutcome> = raw.call('CreateBatch', signedMessage(TEST_KEY, RPC_PATTERNS.createBatch, JSON.stringify({ items })));

      // Killed once it has answered something: the rest of the creates are then being handled or still queued.
      await waitUntil('a first RabbitMQ answer', () => answered.length > 0 || null, 60_000, 5);
      first.kill('SIGKILL');
      const started = performance.now();
      const outcome = await batch;
      expect(performance.now() - started).toBeLessThan(5_000);
      const batchStored = await storedActionsOf(batchRun);
      if (outcome.code === GRPC_STATUS.OK) expect(batchStored).toBe(1000);
      else expect({ code: outcome.code, whole: [0, 1000].includes(batchStored) }).toEqual({ code: GRPC_STATUS.UNAVAILABLE, whole: true });

      const next = new AppProcess('api', await env());
      processes.push(next);
      await next.ready(API_READY, 150_000);
      // A request the killed process had verified comes again with a nonce already used: refused as
      // replayed. The caller does not know whether it ran, and sends it again, freshly signed, with the same Idempotency-Key.
      const outcomes = await Promise.all(creates);
      const actions = await Promise.all(
        outcomes.map(async (outcome, i) => {
          if (!(outcome instanceof PunctualError)) return outcome;
          expect({ status: outcome.statusCode, message: outcome.message }).toEqual({ status: 401, message: expect.stringContaining('replayed request') });
          return create(i);
        }),
      );
      expect(new Set(actions.map((action) => action.id)).size).toBe(CREATES);
      expect(await storedActionsOf(run)).toBe(CREATES);
    } finally {
      raw.close();
      await rabbit.close();
    }
  });
});
