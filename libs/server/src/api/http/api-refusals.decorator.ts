import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';

/**
 * Refusals most routes share, said once for the OpenAPI document; each answers the error body
 * (ErrorResponse). A route's own decorator of a status says more where it has more to say.
 */
export const ApiRefusals = {
  /** What any route of the API can answer: a body over its limit (read before routing), Postgres out of reach. */
  anyRoute: () =>
    applyDecorators(
      ApiPayloadTooLargeResponse({
        description: 'A body over the limit (1 MiB for a batch, 256 KiB for a calendar, 64 KiB otherwise); nothing was read further',
      }),
      ApiServiceUnavailableResponse({ description: 'Postgres unreachable, or a statement ran past DATABASE_STATEMENT_TIMEOUT_MS; nothing was changed' }),
    ),
  /** A path parameter that is not valid (an id that is not a UUID, a calendar name out of its pattern), or a body or query that fails its rules. */
  badRequest: (description = 'A path parameter, query or body that is not valid; message names the field') => ApiBadRequestResponse({ description }),
  /** The tenant's create rate or active-action limit (TENANT_* settings, or its own limits). */
  overQuota: (description = "Over the tenant's create rate or active-action limit; nothing was changed") => ApiTooManyRequestsResponse({ description }),
};

/** One line of what the route does, as generated clients and the docs page name it. */
export const Summary = (summary: string) => ApiOperation({ summary });
