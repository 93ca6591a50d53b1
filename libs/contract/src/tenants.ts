// The admin API's `/admin/api/tenants` as it travels (HTTP with the admin's basic auth).

/** A tenant's own limits; null follows the deployment's default (TENANT_* settings). */
export interface TenantLimitsBody {
  maxActiveActions: number | null;
  createRate: number | null;
  maxConcurrency: number | null;
}

/**
 * What a tenant's MESSAGE actions may reach: transports by their `MESSAGE_TRANSPORTS` name, and
 * patterns (1–200 characters), each exact or, ending in `.`, a prefix of the patterns it allows.
 */
export interface TenantMessagingBody {
  transports: string[];
  patterns: string[];
}

/** The body of `POST /admin/api/tenants`. */
export interface CreateTenantRequest {
  /** 1–64 characters of a–z, 0–9 and `-`; the tenant's for good. */
  id: string;
  limits?: Partial<TenantLimitsBody>;
  /** Left out: nothing (the tenant `default`: everything, until limited). */
  messaging?: TenantMessagingBody;
}

/** The body of `PATCH /admin/api/tenants/:id`: a field left out is unchanged. */
export interface UpdateTenantRequest {
  /** A limit left out is unchanged; null sets the deployment's default back. */
  limits?: Partial<TenantLimitsBody>;
  /** Replaces the grant; null forgets it (the tenant `default` then reaches everything again, any other nothing). */
  messaging?: TenantMessagingBody | null;
}

/** A key the tenant signs with; never its secret. */
export interface TenantKeyResource {
  keyId: string;
  /** `environment`: one of `API_KEYS`; `admin`: made through the admin API. */
  source: 'environment' | 'admin';
  createdAt: string | null;
}

/** A tenant as every tenant route answers it. */
export interface TenantResource {
  id: string;
  limits: TenantLimitsBody;
  /** null: every transport and pattern (the tenant `default` until an operator limits it). */
  messaging: TenantMessagingBody | null;
  /** Its actions that are PENDING or IN_PROGRESS. */
  activeActions: number;
  keys: TenantKeyResource[];
  createdAt: string;
}

/** The answer of `GET /admin/api/tenants`. */
export interface TenantList {
  items: TenantResource[];
}

/** The answer of `POST /admin/api/tenants/:id/keys`: the secret is shown only here. */
export interface CreatedApiKeyResource {
  keyId: string;
  secret: string;
  createdAt: string;
}
