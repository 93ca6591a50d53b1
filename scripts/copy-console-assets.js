// Copies the operator console's static files beside its compiled controller, which serves them from there.
const { cpSync } = require('node:fs');
const { join } = require('node:path');

const [outDir] = process.argv.slice(2);
const assets = join('libs', 'server', 'src', 'api', 'console', 'assets');
cpSync(join(__dirname, '..', assets), join(outDir, assets), { recursive: true });
