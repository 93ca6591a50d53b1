import { FileDescriptorProto, IFileDescriptorProto } from 'protobufjs/ext/descriptor';
import { REFLECTED_MAX_FIELDS, REFLECTED_MAX_TYPES, checkDescriptorBudget } from './descriptor-budget';
import { UnknownGrpcMethodError } from './grpc.errors';

const encoded = (file: IFileDescriptorProto) => Buffer.from(FileDescriptorProto.encode(FileDescriptorProto.fromObject(file)).finish());
const messages = (count: number, fieldsEach = 1) =>
  Array.from({ length: count }, (_, i) => ({
    name: `M${i}`,
    field: Array.from({ length: fieldsEach }, (_, f) => ({ name: `f${f}`, number: f + 1, type: 9 })),
  }));

describe('checkDescriptorBudget', () => {
  it('reads a service described within the budget, counted over every file', () => {
    const half = Math.floor(REFLECTED_MAX_TYPES / 2);
    expect(() =>
      checkDescriptorBudget('p.S', [encoded({ name: 'a.proto', messageType: messages(half) }), encoded({ name: 'b.proto', messageType: messages(half) })]),
    ).not.toThrow();
  });

  it('refuses one more type than the budget, nested messages and enums counted, naming the service and what to do', () => {
    const nested = { name: 'Outer', nestedType: messages(REFLECTED_MAX_TYPES - 2), enumType: [{ name: 'E', value: [{ name: 'A', number: 0 }] }] };
    const file = encoded({ name: 'a.proto', messageType: [nested], enumType: [{ name: 'Top', value: [{ name: 'B', number: 0 }] }] });
    expect(() => checkDescriptorBudget('p.S', [file])).toThrow(UnknownGrpcMethodError);
    expect(() => checkDescriptorBudget('p.S', [file])).toThrow(
      `the target's reflection service describes p.S with ${REFLECTED_MAX_TYPES + 1} types and ${REFLECTED_MAX_TYPES - 2} fields, more than the ${REFLECTED_MAX_TYPES} types and ${REFLECTED_MAX_FIELDS} fields read from a target; list its protos in GRPC_PROTO_PATHS instead`,
    );
  });

  it('refuses a few types with more fields than the budget', () => {
    const fieldsEach = Math.ceil((REFLECTED_MAX_FIELDS + 1) / 10);
    expect(() => checkDescriptorBudget('p.S', [encoded({ name: 'a.proto', messageType: messages(10, fieldsEach) })])).toThrow(
      /more than the .* fields read from a target/,
    );
  });
});
