import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The id names no tenant. → 404 */
export class TenantNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.TenantNotFound;

  constructor(id: string) {
    super(`Tenant ${id} not found`);
  }
}

/** A tenant's id is its own for good. → 409 */
export class TenantExistsError extends PunctualDomainError {
  readonly code = ErrorCode.TenantExists;

  constructor(id: string) {
    super(`Tenant ${id} exists already; change its limits with PATCH /admin/api/tenants/${id}`);
  }
}

/** The tenant has no such key made at run time, or revoked it already. → 404 */
export class ApiKeyNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.ApiKeyNotFound;

  constructor(tenant: string, keyId: string) {
    super(`Tenant ${tenant} has no API key ${keyId} to revoke`);
  }
}

/** A key of `API_KEYS` is the environment's: it is retired there. → 409 */
export class ApiKeyConfiguredError extends PunctualDomainError {
  readonly code = ErrorCode.ApiKeyConfigured;

  constructor(keyId: string) {
    super(`API key ${keyId} is configured in API_KEYS; remove it there and restart the API processes to retire it`);
  }
}

/** Key secrets are kept encrypted under SECRET_KEY, so no key can be made without it. → 503 */
export class SecretKeyNotConfiguredError extends PunctualDomainError {
  readonly code = ErrorCode.SecretKeyNotConfigured;

  constructor() {
    super('API keys cannot be made at run time: set SECRET_KEY (see .env.example) and restart the API');
  }
}
