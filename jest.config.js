// One run covers unit specs beside the code and end-to-end specs in test/.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

module.exports = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }],
    '/node_modules/@nestjs/.+\\.js$': '<rootDir>/test/esm-packages.transform.js',
  },
  // The NestJS packages are ES modules only: see test/esm-packages.transform.js.
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/)'],
  testEnvironment: 'node',
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  globalSetup: '<rootDir>/test/global-setup.ts',
  setupFiles: ['<rootDir>/test/test-env.ts'],
  testTimeout: 30000,
};
