import { Browser, BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package (scripts/test-services.sh installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ADMIN_CREDENTIALS = { username: 'admin', password: 'admin-password' };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

/** A fresh browser profile logged in to the admin area, in a given time zone (the console shows times in the browser's). */
export function consoleContext(browser: Browser, baseURL: string, options: { timezoneId?: string; width?: number } = {}): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    httpCredentials: ADMIN_CREDENTIALS,
    timezoneId: options.timezoneId ?? 'UTC',
    viewport: { width: options.width ?? 1280, height: 900 },
  });
}

/** Basic-auth headers for requests made outside the browser. */
export function basicAuth(username = ADMIN_CREDENTIALS.username, password = ADMIN_CREDENTIALS.password): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}
