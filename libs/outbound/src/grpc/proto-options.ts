import { Options } from '@grpc/proto-loader';

/**
 * How messages are read from and written as JSON: field names as the proto spells them, 64-bit
 * integers and enums as strings, bytes as base64, as the proto3 JSON mapping writes them.
 */
export const GRPC_LOAD_OPTIONS: Options = { keepCase: true, longs: String, enums: String, bytes: String, defaults: false, oneofs: true };
