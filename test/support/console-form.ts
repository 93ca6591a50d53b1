import { basicAuth } from './console-browser';

/** A console session as a browser holds it: the session cookie and the token its pages carry. */
export interface ConsoleSession {
  cookie: string;
  token: string;
}

/** Opens a console page with a form, as a browser would, and keeps the session it was given. */
export async function openConsoleSession(origin: string, path: string): Promise<ConsoleSession> {
  const page = await fetch(`${origin}${path}`, { headers: basicAuth() });
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
  return { cookie, token };
}

/** Sends a console form with the admin login and `headers` (a session's cookie, an Origin…), without following the redirect. */
export function postConsoleForm(origin: string, path: string, fields: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...basicAuth(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}
