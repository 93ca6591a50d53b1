import { Allow, IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MessagePatternField, MessageTransportName } from '@app/action-types';

/** `data` of a MESSAGE action: send `pattern` to a sibling app on a configured NestJS transport. */
export class MessageData {
  /** Sent only when the action's tenant may (its messaging grant). */
  @MessagePatternField()
  @IsString()
  @Length(1, 200)
  pattern: string;

  /** Any JSON value; it reaches the sibling as `payload` in the message. */
  @Allow()
  payload?: unknown;

  /** A name from `MESSAGE_TRANSPORTS`; `default` when left out. */
  @IsOptional()
  @MessageTransportName()
  transport?: string;

  /** `true` (default): `send`, and a reply is success; `false`: `emit`, and the transport accepting it is success. */
  @IsOptional()
  @IsBoolean()
  expectReply?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(120000)
  timeoutMs?: number;
}
