// @ts-check
import eslint from '@eslint/js';
import eslintPluginPrettierRecommended from 'eslint-plugin-prettier/recommended';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layering from './eslint.boundaries.cjs';

export default tseslint.config(
  {
    ignores: ['eslint.config.mjs', 'eslint.boundaries.cjs', '**/dist/', 'coverage/', 'bench/results/'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  eslintPluginPrettierRecommended,
  {
    languageOptions: {
      globals: {
        ...globals.node,
        ...globals.jest,
      },
      sourceType: 'commonjs',
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'warn',
      '@typescript-eslint/no-unsafe-argument': 'warn',
      'prettier/prettier': ['error', { endOfLine: 'auto' }],
      // Fulfillments, providers and lifecycle hooks implement interfaces that return promises;
      // `async` keeps a synchronous implementation's errors inside the promise, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // `.map(ActionResponse.from)`: static factories use no `this`, so passing them is safe.
      '@typescript-eslint/unbound-method': ['error', { ignoreStatic: true }],
    },
  },
  {
    // Specs (and the case tables they share) read HTTP answers and rows as untyped JSON on purpose and assert on their shape;
    // flagging every property read of that JSON says nothing a failing assertion would not.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.cases.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain CommonJS scripts are outside the TypeScript project: no type information, and require() is their import.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // The console's script runs in the browser, as a plain script.
    files: ['libs/server/src/api/console/assets/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // Small modules with one job: a file of the apps or libraries that outgrows 300 lines is split by concern.
    // A case table is one long list on purpose.
    files: ['apps/**/*.{ts,js}', 'libs/**/*.{ts,js}'],
    ignores: ['**/*.cases.ts'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  ...layering.boundaries,
);
