import { CreateTenantRequest, CreatedApiKeyResource, TenantList, TenantResource, UpdateTenantRequest } from '@punctual/contract';
import { PunctualError, asErrorBody } from '../punctual-error';

export interface PunctualAdminOptions {
  /** e.g. `http://localhost:3000` */
  baseUrl: string;
  /** ADMIN_USER and ADMIN_PASSWORD of the deployment. */
  user: string;
  password: string;
}

/**
 * A typed client of the admin API (`/admin/api/tenants`), for operators' scripts: tenants, their
 * limits, what their MESSAGE actions may reach, and their keys. It signs in with the admin's HTTP
 * basic auth, not an API key: keep it out of tenants' hands. Every refusal is a `PunctualError`
 * with the status code; nothing was changed.
 *
 * @example
 * const admin = new PunctualAdmin({ baseUrl: 'http://localhost:3000', user: 'admin', password: process.env.ADMIN_PASSWORD! });
 * await admin.createTenant({ id: 'billing', messaging: { transports: ['default'], patterns: ['billing.'] } });
 * const { keyId, secret } = await admin.createKey('billing'); // the secret is shown only here
 */
export class PunctualAdmin {
  private readonly authorization: string;

  constructor(private readonly options: PunctualAdminOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`, 'utf8').toString('base64')}`;
  }

  /** 409 when a tenant of that id exists. */
  createTenant(body: CreateTenantRequest): Promise<TenantResource> {
    return this.send('POST', '/tenants', body);
  }

  listTenants(): Promise<TenantList> {
    return this.send('GET', '/tenants');
  }

  getTenant(id: string): Promise<TenantResource> {
    return this.send('GET', `/tenants/${encodeURIComponent(id)}`);
  }

  /** Changes the limits and messaging given; a field left out is unchanged. */
  updateTenant(id: string, changes: UpdateTenantRequest): Promise<TenantResource> {
    return this.send('PATCH', `/tenants/${encodeURIComponent(id)}`, changes);
  }

  /** A new key of the tenant; its secret is in this answer alone. */
  createKey(tenant: string): Promise<CreatedApiKeyResource> {
    return this.send('POST', `/tenants/${encodeURIComponent(tenant)}/keys`, {});
  }

  /** Revokes a key made through the admin API (a key of API_KEYS is retired in the environment: 409). */
  async revokeKey(tenant: string, keyId: string): Promise<void> {
    await this.send('DELETE', `/tenants/${encodeURIComponent(tenant)}/keys/${encodeURIComponent(keyId)}`);
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.options.baseUrl}/admin/api${path}`, {
      method,
      headers: { authorization: this.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = parsed(await response.text());
    if (response.status >= 400) {
      throw new PunctualError(asErrorBody(answer) ?? { statusCode: response.status, error: 'Error', message: `HTTP ${response.status}` });
    }
    return answer as T;
  }
}

/** The JSON of an answer; null when empty, or not JSON (a refused login answers plain text). */
function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
