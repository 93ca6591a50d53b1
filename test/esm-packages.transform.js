// Jest loads the specs and the code under test as CommonJS. The NestJS 12 packages are published as
// ES modules only; Node (20.19+) loads them with require(), but Jest's own module loader can
// require() an ES module only on Node 24.9+ with --experimental-vm-modules. This transform compiles
// those packages to CommonJS for the test run, so the suite runs the same on every Node the
// product supports. The built apps load the packages natively and never see it.
const { createHash } = require('crypto');
const { readFileSync } = require('fs');
const ts = require('typescript');

const SELF = readFileSync(__filename, 'utf8');

/** `import.meta` has no CommonJS form: give each use the module's own `require`, `__dirname`, `__filename`. */
function withoutImportMeta(source) {
  return source
    .replace(/^const require = createRequire\(import\.meta\.url\);$/gm, '')
    .replace(/createRequire\(import\.meta\.url\)/g, 'require')
    .replace(/import\.meta\.resolve\(/g, 'require.resolve(')
    .replace(/import\.meta\.dirname/g, '__dirname')
    .replace(/import\.meta\.filename/g, '__filename')
    .replace(/import\.meta\.url/g, "require('url').pathToFileURL(__filename).href");
}

module.exports = {
  process(source, fileName) {
    const { outputText, sourceMapText } = ts.transpileModule(withoutImportMeta(source), {
      fileName,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        sourceMap: true,
      },
    });
    return { code: outputText, map: sourceMapText };
  },
  getCacheKey(source, fileName) {
    return createHash('sha256').update(SELF).update(ts.version).update(fileName).update(source).digest('hex');
  },
};
