import { UseFilters, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { SignatureGuard } from '@app/signature';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { ApiRefusals } from './api-refusals.decorator';

/**
 * A controller of signed routes: every request passes the signature check first, errors are
 * answered by their code, and the OpenAPI document lists it under `tag` with the four signature
 * headers, the 401 and what any route can answer.
 */
export function SignedRoutes(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiSecurity('X-Punctual-Key'),
    ApiSecurity('X-Punctual-Timestamp'),
    ApiSecurity('X-Punctual-Nonce'),
    ApiSecurity('X-Punctual-Signature'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired, replayed or wrong signature' }),
    ApiRefusals.anyRoute(),
    UseGuards(SignatureGuard),
    UseFilters(ApiExceptionFilter),
  );
}
