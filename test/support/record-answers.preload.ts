// Loaded with `node -r` into an API process a spec starts (test/support/app-process.ts) when
// PUNCTUAL_RECORD_ANSWERS names a directory: writes the OpenAPI document the process serves, then
// every answer it gives on a route of that document, as JSON lines to <directory>/<pid>.jsonl, for
// the spec file's check of its answers (test/openapi-answers.setup.ts). Each line is written as
// its answer is sent, so a process the spec kills has lost none.
import { appendFileSync } from 'node:fs';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import Module from 'node:module';
import { join } from 'node:path';
import { captureAnswer, OpenApiDocument, Routes } from './answer-recorder';

interface SwaggerModule {
  setup(path: string, app: unknown, document: OpenApiDocument, ...rest: unknown[]): unknown;
}

const directory = process.env.PUNCTUAL_RECORD_ANSWERS;
if (directory) {
  const file = join(directory, `${process.pid}.jsonl`);
  const record = (line: object) => {
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch (error) {
      // The spec file's check has run and removed the directory: answers after it go unchecked.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
  let routes: Routes | undefined;

  // The document is taken as the API sets up /docs-json, not fetched from it: a request of our own
  // would show in the process's access log, metrics and traces, which specs look at. Whichever copy
  // of @nestjs/swagger the app requires (a packed project has its own, where npm put it).
  const patched = new WeakSet<SwaggerModule>();
  const recordSetUp = (swagger: SwaggerModule) => {
    if (patched.has(swagger)) return;
    patched.add(swagger);
    const setup = swagger.setup.bind(swagger);
    swagger.setup = (path, app, document, ...rest) => {
      routes = new Routes(document);
      record({ document });
      return setup(path, app, document, ...rest);
    };
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the requiring module as `this`
  const load = Module.prototype.require;
  Module.prototype.require = function (this: Module, id: string) {
    const exports = load.call(this, id) as { SwaggerModule?: SwaggerModule };
    if (id === '@nestjs/swagger' && exports.SwaggerModule) recordSetUp(exports.SwaggerModule);
    return exports;
  } as typeof load;

  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the server as `this`
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    const [req, res] = args as [IncomingMessage, ServerResponse];
    if (event === 'request' && routes?.template(req.url ?? '')) captureAnswer(req, res, (answer) => record({ answer }));
    return emit.call(this, event, ...args);
  } as typeof emit;
}
