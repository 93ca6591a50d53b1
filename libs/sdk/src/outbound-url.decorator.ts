import 'reflect-metadata';
import { Type } from '@nestjs/common';
import { ValidateBy, buildMessage } from 'class-validator';
import { userInfoProblem } from './url-user-info';

const OUTBOUND_URLS = 'punctual:outbound-url-properties';

/**
 * Marks a field of action data as a URL that the worker will call: it must be an absolute
 * http or https URL (read by the same parser the worker uses) without user information, and the
 * API refuses it (400, nothing stored) when the deployment's egress policy (`OUTBOUND_ALLOWED_HOSTS`)
 * refuses its host without a DNS lookup: an internal IP literal in any spelling
 * (`http://169.254.169.254/`, `http://[::1]/`), or `localhost`. Other host names are judged when
 * called, by the outbound client (`OutboundClient` of `@punctual/server`).
 */
export function OutboundUrl(): PropertyDecorator {
  const isHttpUrl = ValidateBy({
    name: 'isOutboundUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseHttpUrl(value) !== null,
      defaultMessage: buildMessage((prefix) => `${prefix}$property must be an http or https URL`),
    },
  });
  const withoutUserInfo = ValidateBy({
    name: 'isOutboundUrlWithoutUserInfo',
    validator: {
      validate: (value: unknown) => userInfoProblemOf(value) === null,
      defaultMessage: buildMessage((prefix, args) => `${prefix}$property ${userInfoProblemOf(args?.value)}`),
    },
  });
  return (target, property) => {
    isHttpUrl(target, property);
    withoutUserInfo(target, property);
    Reflect.defineMetadata(OUTBOUND_URLS, [...outboundUrlProperties(target.constructor as Type), String(property)], target.constructor);
  };
}

/** The fields of a data class marked `@OutboundUrl()`: what the server checks against its egress policy. */
export function outboundUrlProperties(dataClass: Type): string[] {
  return (Reflect.getMetadata(OUTBOUND_URLS, dataClass) as string[] | undefined) ?? [];
}

/** Left to the http(s) check when the value is no such URL. */
function userInfoProblemOf(value: unknown): string | null {
  const url = typeof value === 'string' ? parseHttpUrl(value) : null;
  return url && userInfoProblem(url);
}

/** An absolute http(s) URL as Node reads it, or null. */
export function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
