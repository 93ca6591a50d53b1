import { MethodDefinition, loadSync } from '@grpc/proto-loader';
import { join } from 'node:path';
import { GrpcMethods } from './grpc-methods';
import { parseGrpcTarget } from './grpc-target';
import { requestTypeOf, withMapEntries } from './request-fields';

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

describe('The maps of a GRPC message sent to a method found by reflection', () => {
  // Built from descriptors, as a reflected method's request type is: its map is a repeated entry type.
  const files = (loadSync(ORDERS_PROTO, { keepCase: true })['punctual.test.Orders'] as Record<string, MethodDefinition<object, object>>).Ship.requestType
    .fileDescriptorProtos;
  const type = requestTypeOf(files, 'punctual.test.Orders', 'Ship');

  it('are written as the list of entries such a type takes, when given as proto3 JSON gives them', () => {
    const message = { order_id: 'o-1', destination: { city: 'Lyon' }, stops: { first: { city: 'Dijon' }, then: { city: 'Mâcon' } } };
    expect(withMapEntries(type, message)).toEqual({
      order_id: 'o-1',
      destination: { city: 'Lyon' },
      stops: [
        { key: 'first', value: { city: 'Dijon' } },
        { key: 'then', value: { city: 'Mâcon' } },
      ],
    });
  });

  it('pass as they are when already given as entries', () => {
    const stops = [{ key: 'first', value: { city: 'Dijon' } }];
    expect(withMapEntries(type, { stops })).toEqual({ stops });
  });
});
