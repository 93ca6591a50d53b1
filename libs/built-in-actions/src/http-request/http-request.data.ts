import { Allow, IsIn, IsInt, IsObject, IsOptional, Max, Min, ValidateBy, buildMessage } from 'class-validator';
import { OutboundUrl } from '@punctual/sdk';
import { IsSendableHeaders } from './sendable-headers.validator';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Header values must be strings: they go on the wire as they are. */
function IsStringRecord() {
  return ValidateBy({
    name: 'isStringRecord',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string'),
      defaultMessage: buildMessage((prefix) => `${prefix}$property must be an object whose values are strings`),
    },
  });
}

/** `data` of an HTTP_REQUEST action: call `url`; 2xx is success, redirects are not followed. */
export class HttpRequestData {
  @OutboundUrl()
  url: string;

  @IsOptional()
  @IsIn(HTTP_METHODS, { message: `method must be one of ${HTTP_METHODS.join(', ')}` })
  method?: HttpMethod;

  @IsOptional()
  @IsObject()
  @IsStringRecord()
  @IsSendableHeaders()
  headers?: Record<string, string>;

  /** Any JSON value: objects and arrays go as JSON, a string as it is. */
  @Allow()
  body?: unknown;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(120000)
  timeoutMs?: number;
}
