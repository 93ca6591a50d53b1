import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The layering rules alone (eslint.boundaries.cjs), as `npm run lint` applies them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { boundaries } = require('../eslint.boundaries.cjs') as { boundaries: object[] };

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
});

/** The layering messages lint gives for `source` at `path`. */
async function refusals(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('Lint keeps the layering', () => {
  it.each([
    [
      'a lib importing an app',
      'libs/scheduling/src/action-scheduler.ts',
      "import { runApi } from '../../../apps/api/src/main';",
      /libs never import apps/,
    ],
    [
      'a built-in type importing the server, which stands on it',
      'libs/built-in-actions/src/message/message.fulfillment.ts',
      "import { runWorker } from '@punctual/server';",
      /stands on the other libs/,
    ],
    [
      'a lib reaching into another lib by path',
      'libs/client/src/http/signed-http.ts',
      "import { signRequest } from '../../../signature/src/sign-request';",
      /by its name/,
    ],
    [
      'the domain importing a lib of ours',
      'libs/domain/src/lifecycle/transition.ts',
      "import { PunctualConfig } from '@app/config';",
      /imports nothing of ours/,
    ],
    [
      'the runtime importing the database, which stands on it',
      'libs/runtime/src/leader-task.ts',
      "import { SessionLock } from '@app/database';",
      /runtime is process machinery/,
    ],
    [
      'the contract importing a server library',
      'libs/contract/src/actions.ts',
      "import { Repository } from 'typeorm';",
      /contract is a package of its own/,
    ],
    [
      'the SDK importing server code',
      'libs/sdk/src/fulfillment.decorator.ts',
      "import { ActionTypeRegistry } from '@app/action-types';",
      /SDK is a package of its own/,
    ],
    [
      'the SDK importing the outbound client, which needs the server’s runtime',
      'libs/sdk/src/outbound-url.decorator.ts',
      "import { EgressPolicy } from '@app/outbound';",
      /SDK is a package of its own/,
    ],
    [
      'the client importing server code',
      'libs/client/src/punctual-client.ts',
      "import { PunctualConfig } from '@app/config';",
      /client is a package of its own/,
    ],
    ['the API app importing the worker app', 'apps/api/src/main.ts', "import { runWorker } from '../../worker/src/main';", /do not import each other/],
    [
      'the API’s module tree importing the worker’s',
      'libs/server/src/api/api.module.ts',
      "import { WorkerModule } from '../worker/worker.module';",
      /do not import each other/,
    ],
    [
      'the worker’s module tree importing the API’s',
      'libs/server/src/worker/worker.module.ts',
      "import { ApiModule } from '../api/api.module';",
      /do not import each other/,
    ],
    ['a spec importing an app’s sources', 'test/support/api-test-app.ts', "import { runApi } from '../../apps/api/src/main';", /apps\/api is private/],
    [
      'the benchmark importing an app’s sources',
      'bench/apps/worker.ts',
      "import { runWorker } from '../../apps/worker/src/main';",
      /apps\/worker is private/,
    ],
    [
      'a lib’s spec importing an app’s sources',
      'libs/server/src/package-manifests.spec.ts',
      "import { runApi } from '../../../apps/api/src/main';",
      /apps\/api is private/,
    ],
  ])('refuses %s', async (_what, path, source, message) => {
    const found = await refusals(path, source);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['an app importing the server package', 'apps/api/src/main.ts', "import { runApi } from '@punctual/server';"],
    ['a spec importing the server’s internals by name', 'test/support/api-test-app.ts', "import { ApiModule } from '@app/server';"],
    ['a lib importing another by name', 'libs/scheduling/src/action-scheduler.ts', "import { PunctualConfig } from '@app/config';"],
    ['the client importing the contract', 'libs/client/src/punctual-client.ts', "import { RPC_PATTERNS } from '@punctual/contract';"],
    ['the SDK importing Nest’s decorators', 'libs/sdk/src/fulfillment.decorator.ts', "import { Injectable } from '@nestjs/common';"],
    ['the SDK importing class-validator, a peer dependency', 'libs/sdk/src/outbound-url.decorator.ts', "import { ValidateBy } from 'class-validator';"],
    ['a store’s lib importing the runtime', 'libs/database/src/advisory-lock.ts', "import { AdvisoryLock } from '@app/runtime';"],
    [
      'the domain importing its own files and node',
      'libs/domain/src/lifecycle/transition.ts',
      "import { Clock } from '../clock';\nimport { randomUUID } from 'node:crypto';",
    ],
  ])('allows %s', async (_what, path, source) => {
    expect(await refusals(path, source)).toEqual([]);
  });
});
