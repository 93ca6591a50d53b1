import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ActionTypeRegistry } from '@app/action-types';
import { operationId, refineOpenApiDocument } from './openapi-document';
import { signTryItOut } from './try-it-out-signer';

/** The security scheme of the admin API's routes. */
export const ADMIN_SCHEME = 'admin';

export const SIGNATURE_SCHEMES = ['X-Punctual-Key', 'X-Punctual-Timestamp', 'X-Punctual-Nonce', 'X-Punctual-Signature'];

/** OpenAPI document at /docs (UI) and /docs-json, generated from the DTOs and the action types' data schemas. */
export function useOpenApi(app: INestApplication): void {
  const builder = new DocumentBuilder()
    .setTitle('Punctual')
    .setDescription(
      [
        'Durable scheduler for actions. Every `/actions` route needs all four signature headers:',
        '`X-Punctual-Key` (key id), `X-Punctual-Timestamp` (Unix seconds), `X-Punctual-Nonce` (16–128 of `[A-Za-z0-9_-]`, fresh per request)',
        'and `X-Punctual-Signature` = `v1=` + hex HMAC-SHA256 with the key secret of',
        '`TIMESTAMP\\nNONCE\\nMETHOD\\nPATH_WITH_QUERY\\nRAW_BODY`. Requests more than 300 s off the server clock, or reusing a nonce, get 401.',
        'On this page, "Try it out" signs for you: in Authorize, enter `keyId:secret` as `X-Punctual-Key` and leave the other three empty.',
        'The page signs each call in the browser and sends only the key id; the secret stays in this tab until it is closed.',
        'The `/admin/api` routes take the admin login (HTTP basic, `ADMIN_USER` and `ADMIN_PASSWORD`) instead.',
      ].join(' '),
    )
    .setVersion('1')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative: the API that serves this document answers its calls, wherever it is reached.
    .addServer('/');
  for (const header of SIGNATURE_SCHEMES) builder.addApiKey({ type: 'apiKey', in: 'header', name: header }, header);
  builder.addBasicAuth({ type: 'http', scheme: 'basic', description: 'The admin login: ADMIN_USER and ADMIN_PASSWORD' }, ADMIN_SCHEME);
  const generated = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationId });
  const document = refineOpenApiDocument(generated, SIGNATURE_SCHEMES, app.get(ActionTypeRegistry));
  SwaggerModule.setup('docs', app, document, { swaggerOptions: { requestInterceptor: signTryItOut } });
}
