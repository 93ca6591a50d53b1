import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from './env-file';

describe('loadEnvFile', () => {
  const names = ['ENV_FILE_SPEC_ONLY_IN_FILE', 'ENV_FILE_SPEC_IN_BOTH'];
  const nodeEnv = process.env.NODE_ENV;
  let file: string;

  beforeEach(() => {
    file = join(mkdtempSync(join(tmpdir(), 'punctual-env-')), '.env');
    writeFileSync(file, 'ENV_FILE_SPEC_ONLY_IN_FILE=from-file\nENV_FILE_SPEC_IN_BOTH=from-file\n');
    process.env.ENV_FILE_SPEC_IN_BOTH = 'from-environment';
  });
  afterEach(() => {
    for (const name of names) delete process.env[name];
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });

  it('adds what the file sets and the environment does not, the environment winning', () => {
    process.env.NODE_ENV = 'development';
    loadEnvFile(file);
    expect(process.env.ENV_FILE_SPEC_ONLY_IN_FILE).toBe('from-file');
    expect(process.env.ENV_FILE_SPEC_IN_BOTH).toBe('from-environment');
  });

  it('reads the file in production too, where it may hold settings but never replaces the real ones', () => {
    process.env.NODE_ENV = 'production';
    loadEnvFile(file);
    expect(process.env.ENV_FILE_SPEC_ONLY_IN_FILE).toBe('from-file');
    expect(process.env.ENV_FILE_SPEC_IN_BOTH).toBe('from-environment');
  });

  it("ignores the file under NODE_ENV=test, so a developer's .env never reaches a test run", () => {
    process.env.NODE_ENV = 'test';
    loadEnvFile(file);
    expect(process.env.ENV_FILE_SPEC_ONLY_IN_FILE).toBeUndefined();
  });

  it('does nothing when there is no file', () => {
    process.env.NODE_ENV = 'development';
    expect(() => loadEnvFile(join(file, '..', 'missing.env'))).not.toThrow();
    expect(process.env.ENV_FILE_SPEC_ONLY_IN_FILE).toBeUndefined();
  });
});
