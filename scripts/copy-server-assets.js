// Copies the server's files that are not TypeScript beside the compiled modules that read them from there:
// the operator console's static files, the Lua scripts of the admin login limit and the worker's tenant slots, and
// the gRPC service's punctual.proto.
const { cpSync } = require('node:fs');
const { join } = require('node:path');

const [outDir] = process.argv.slice(2);
for (const assets of [
  join('libs', 'server', 'src', 'api', 'console', 'assets'),
  join('libs', 'server', 'src', 'api', 'admin', 'lua'),
  join('libs', 'server', 'src', 'worker', 'execution', 'lua'),
  join('libs', 'contract', 'src', 'punctual.proto'),
]) {
  cpSync(join(__dirname, '..', assets), join(outDir, assets), { recursive: true });
}
