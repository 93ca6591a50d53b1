import { INestApplication } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PunctualConfig } from '@app/config';
import { ApiValidationPipe } from './api-validation.pipe';
import { useBufferedBodies } from './body-parsers';
import { useHttpServerSettings } from './http-server-settings';
import { JsonBodyInterceptor } from './json-body.interceptor';
import { useOpenApi } from './openapi';
import { useRequestObservability } from './request-observability';
import { UnavailableExceptionFilter } from './unavailable-exception.filter';

/** Everything main.ts does to the app besides listening; tests build the same app with it. */
export function configureApiApp(app: INestApplication): void {
  useHttpServerSettings(app);
  useRequestObservability(app);
  useBufferedBodies(app);
  // Interceptors run after every guard: a body is parsed only once its request was let through.
  app.useGlobalInterceptors(new JsonBodyInterceptor());
  app.useGlobalPipes(new ApiValidationPipe());
  app.useGlobalFilters(new UnavailableExceptionFilter(app.get(HttpAdapterHost).httpAdapter, app.get(PunctualConfig).database.statementTimeoutMs));
  useOpenApi(app);
}
