import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, buildMessage } from 'class-validator';
import { parseGrpcTarget } from '@app/outbound';
import { IsSendableMetadata } from './grpc-metadata.validator';

/** The largest `message`, as JSON: a scheduled call carries a request, not a payload store. */
export const MAX_GRPC_MESSAGE_BYTES = 64 * 1024;

function IsGrpcTarget() {
  return ValidateBy({
    name: 'isGrpcTarget',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseGrpcTarget(value) !== null,
      defaultMessage: buildMessage(
        (prefix) => `${prefix}$property must be host:port (a host name or an IP address, IPv6 in brackets, and a port from 1 to 65535)`,
      ),
    },
  });
}

/** A JSON object (not an array, not null) of at most `MAX_GRPC_MESSAGE_BYTES`. */
function IsMessageObject() {
  const problem = (value: unknown): string | null => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'must be a JSON object, the request message with its fields as the proto names them';
    const bytes = Buffer.byteLength(JSON.stringify(value));
    return bytes > MAX_GRPC_MESSAGE_BYTES ? `takes ${bytes} bytes as JSON; at most ${MAX_GRPC_MESSAGE_BYTES} are sent` : null;
  };
  return ValidateBy({
    name: 'isMessageObject',
    validator: {
      validate: (value: unknown) => problem(value) === null,
      defaultMessage: (args) => `${args!.property} ${problem(args!.value)}`,
    },
  });
}

/** `data` of a GRPC action: call the unary `service`/`method` of `target` with `message`; status OK is success. */
export class GrpcData {
  @IsGrpcTarget()
  target: string;

  /** Fully qualified, as the proto declares it: `package.Service`. */
  @IsString()
  @MaxLength(256)
  @Matches(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, { message: 'service must be a fully qualified service name, e.g. shop.v1.Orders' })
  service: string;

  @IsString()
  @MaxLength(128)
  @Matches(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'method must be a method name as the proto declares it, e.g. Ship' })
  method: string;

  @IsMessageObject()
  message: Record<string, unknown>;

  /** Sent as the call's metadata, beside the idempotency key and the signature. */
  @IsOptional()
  @IsSendableMetadata()
  metadata?: Record<string, string>;

  /** `true`: TLS, trusting the system's CAs and `GRPC_CA_FILE`; default plaintext. */
  @IsOptional()
  @IsBoolean()
  tls?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(120000)
  timeoutMs?: number;
}
