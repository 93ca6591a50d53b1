import { join } from 'node:path';
import { GrpcMethods } from './grpc-methods';
import { parseGrpcTarget } from './grpc-target';

const ORDERS_PROTO = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'grpc', 'orders.proto');

describe('The fields of a GRPC message its request type does not have', () => {
  // A service the configured protos declare is found without asking the target: no channel is needed.
  const shipFields = async (message: object) => {
    const method = await new GrpcMethods([ORDERS_PROTO]).resolve(
      undefined as never,
      parseGrpcTarget('example.com:443')!,
      false,
      'punctual.test.Orders',
      'Ship',
      {
        deadline: new Date(Date.now() + 1000),
      },
    );
    return method.unknownFields(message);
  };

  it('none in a message of known fields, nested ones and map values included', async () => {
    const message = { order_id: 'o-1', quantity: 2, notes: ['a'], destination: { city: 'Lyon' }, stops: { first: { city: 'Dijon' } } };
    expect(await shipFields(message)).toEqual([]);
  });

  it('names each unknown field by its path, at any depth and in map values', async () => {
    const message = {
      orderId: 'o-1',
      destination: { city: 'Lyon', town: 'Lyon' },
      stops: { first: { town: 'Dijon' } },
    };
    expect(await shipFields(message)).toEqual(['orderId', 'destination.town', 'stops.first.town']);
  });

  it('leaves a value of the wrong kind to protobuf, which refuses it when the message is written', async () => {
    expect(await shipFields({ destination: 'Lyon', stops: ['x'], notes: { a: 1 } })).toEqual([]);
  });
});
