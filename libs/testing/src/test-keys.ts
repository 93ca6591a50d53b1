/** The API keys of the test environment (`test/test-env.ts`); the first is what test clients sign with. */
export const TEST_KEY = { keyId: 'test-key', secret: 'test-secret-0123456789' };
export const ROTATED_KEY = { keyId: 'rotated-key', secret: 'rotated-secret-9876543210' };
/** A key of another tenant (`team-b`): it must see nothing of what the test key's tenant stores. */
export const OTHER_TENANT_KEY = { keyId: 'other-tenant-key', secret: 'other-tenant-secret-0123' };
