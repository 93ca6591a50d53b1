import { basicAuth } from './console-browser';

/** A call to the admin API, as operators' scripts make it: the admin login (unless `headers` say otherwise) and a JSON body. */
export async function adminApi(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = basicAuth()) {
  const response = await fetch(`${baseUrl}/admin/api${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A new tenant `id` with `limits`, and a key of it: requests signed with the key act for that tenant alone. */
export async function tenantWithKey(baseUrl: string, id: string, limits: object): Promise<{ id: string; key: { keyId: string; secret: string } }> {
  expect((await adminApi(baseUrl, 'POST', '/tenants', { id, limits })).status).toBe(201);
  const { status, body } = await adminApi(baseUrl, 'POST', `/tenants/${id}/keys`, {});
  expect(status).toBe(201);
  return { id, key: { keyId: body.keyId, secret: body.secret } };
}
