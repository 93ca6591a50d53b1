import { INestApplication, ValidationPipe } from '@nestjs/common';
import { useJsonBodies } from './body-parsers';
import { useOpenApi } from './openapi';

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
  useOpenApi(app);
}
