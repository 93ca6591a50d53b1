import { INestApplication, ValidationPipe } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { useJsonBodies } from './body-parsers';
import { useOpenApi } from './openapi';
import { UnavailableExceptionFilter } from './unavailable-exception.filter';

/** Everything main.ts does to the app besides listening; tests build the same app with it. */
export function configureApiApp(app: INestApplication): void {
  useJsonBodies(app);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: false,
    }),
  );
  app.useGlobalFilters(new UnavailableExceptionFilter(app.get(HttpAdapterHost).httpAdapter));
  useOpenApi(app);
}
