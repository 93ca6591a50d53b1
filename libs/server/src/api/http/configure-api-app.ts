import { INestApplication } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ActionTypeRegistry } from '@app/action-types';
import { PunctualConfig } from '@app/config';
import { ApiValidationPipe } from './api-validation.pipe';
import { useBufferedBodies } from './body-parsers';
import { useHttpServerSettings } from './http-server-settings';
import { useOpenApi } from './openapi';
import { useRequestObservability } from './request-observability';
import { UnavailableExceptionFilter } from './unavailable-exception.filter';

/** Everything main.ts does to the app besides listening; tests build the same app with it. */
export function configureApiApp(app: INestApplication): void {
  useHttpServerSettings(app);
  useRequestObservability(app);
  useBufferedBodies(app);
  app.useGlobalPipes(new ApiValidationPipe(app.get(ActionTypeRegistry)));
  app.useGlobalFilters(new UnavailableExceptionFilter(app.get(HttpAdapterHost).httpAdapter, app.get(PunctualConfig).database.statementTimeoutMs));
  useOpenApi(app);
}
