/**
 * Takes the README's console screenshots (docs/images/console-*.png) on realistic data: it runs
 * the API and a worker on a database of its own, schedules a steady trickle of actions for a few
 * minutes (notifications, webhooks to a partner that answers, and to one that is down, each also
 * subscribed to lifecycle events) for two teams, each with its own tenant, then photographs the
 * overview, a FAILED action's page, a paused action's page with its controls, the webhooks page,
 * the calendars page (public holidays that a daily reminder skips) and the tenants page (each
 * team's quota use, limits and keys) in Chromium.
 *
 *   node -r ts-node/register/transpile-only -r tsconfig-paths/register scripts/console-screenshots.ts [minutes]
 *
 * It uses the test run's Postgres and Redis (TEST_DATABASE_URL / TEST_REDIS_URL) with its own
 * database name and queue prefix, and empties them first.
 */
import '../test/test-env';
import { join } from 'node:path';
import { migrate } from '@app/database';
import { SignedHttp } from '@punctual/client';
import { HttpReceiver, TestHttp, waitUntil } from '@app/testing';
import { startCleanApiApp } from '../test/support/api-test-app';
import { basicAuth, consoleContext, launchChromium } from '../test/support/console-browser';
import { startWorker } from '../test/support/worker-test-app';

const database = new URL(process.env.DATABASE_URL!);
database.pathname = '/punctual_screenshots';
process.env.DATABASE_URL = database.toString();
process.env.QUEUE_PREFIX = 'punctual-screenshots';
// The pages show the deployment's default limits, not the specs' raised ones.
delete process.env.TENANT_CREATE_RATE;

const minutes = Number(process.argv[2] ?? 12);
const images = join(__dirname, '..', 'docs', 'images');
const customers = ['Aisyah', 'Joojo', 'Mei Ling', 'Ravi', 'Sofia', 'Tomás', 'Wei', 'Zainab'];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Some of Malaysia's public holidays (the fixed-date ones and Chinese New Year), a year-end office closure, and a daily reminder that skips the holidays. */
async function holidayCalendars(client: TestHttp): Promise<void> {
  const holidays = ['01-01', '05-01', '08-31', '09-16', '12-25'];
  await client.put('/calendars/my-public-holidays', {
    description: 'Public holidays, Malaysia (federal)',
    dates: [...holidays.map((day) => `2026-${day}`), '2026-02-17', '2026-02-18', ...holidays.map((day) => `2027-${day}`), '2027-02-06', '2027-02-07'],
  });
  await client.put('/calendars/office-closures', {
    description: 'Year-end shutdown: no collection calls',
    dates: ['2026-12-24', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31'],
  });
  await client.post('/actions', {
    action: 'SEND_NOTIFICATION',
    executionTime: Date.now() + 3_600_000,
    data: { notificationType: 'SMS', mobile: '60123456789', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', subject: 'Reminder', name: pick(customers) },
    repeat: true,
    frequency: 'DAILY',
    timezone: 'Asia/Kuala_Lumpur',
    calendar: 'my-public-holidays',
  });
}

/** A second team's tenant, made through the admin API with limits of its own, and a client signing with its first key. */
async function paymentsTeam(baseUrl: string): Promise<TestHttp> {
  const admin = async (method: string, path: string, body: object, ok: number[]) => {
    const response = await fetch(`${baseUrl}/admin/api${path}`, {
      method,
      headers: { ...basicAuth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!ok.includes(response.status)) throw new Error(`${method} /admin/api${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { keyId: string; secret: string };
  };
  const limits = { maxActiveActions: 5000, createRate: 50 };
  // Tenants outlive the emptying of the tables: one made by an earlier run gets its limits again.
  await admin('POST', '/tenants', { id: 'payments', limits }, [201, 409]);
  await admin('PATCH', '/tenants/payments', { limits }, [200]);
  const key = await admin('POST', '/tenants/payments/keys', {}, [201]);
  return new SignedHttp<any>({ baseUrl, keyId: key.keyId, secret: key.secret });
}

async function main(): Promise<void> {
  await migrate(process.env.DATABASE_URL!);
  const [api, partner, billing, browser] = await Promise.all([
    startCleanApiApp(),
    new HttpReceiver().start(),
    new HttpReceiver().start(),
    launchChromium(),
  ]);
  const worker = await startWorker();
  // The billing partner is down for the whole run: its webhooks exhaust their retries and end FAILED.
  billing.failNext(1_000_000, 503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
  try {
    const payments = await paymentsTeam(api.client.baseUrl);
    await api.client.post('/webhooks', { url: partner.url('/events'), events: ['action.succeeded', 'action.paused'], description: 'Order sync' });
    await api.client.post('/webhooks', { url: billing.url('/events'), events: ['action.failed'], description: 'Billing alerts' });
    const until = Date.now() + minutes * 60_000;
    let created = 0;
    while (Date.now() < until) {
      const due = Date.now() + Math.floor(Math.random() * 20_000);
      const customer = pick(customers);
      const kind = Math.random();
      const body =
        kind < 0.45
          ? {
              action: 'SEND_NOTIFICATION',
              executionTime: due,
              data: {
                notificationType: 'SMS',
                mobile: '60123456789',
                templateType: pick(['USER_LATE_PAYMENT_NOTIFICATION', 'PAYMENT_RECEIVED_NOTIFICATION']),
                subject: 'Your account',
                name: customer,
              },
              metadata: { customer, campaign: 'dunning-2030-q1' },
              ...(Math.random() < 0.3 ? { repeat: true, frequency: 'TEN_MINS', executionRemainder: 6 } : {}),
            }
          : {
              action: 'HTTP_REQUEST',
              executionTime: due,
              data: {
                url: kind < 0.9 ? partner.url('/orders/sync') : billing.url('/invoices/settle'),
                method: 'POST',
                body: { customer, invoice: `INV-${1000 + created}`, amountCents: 1000 + Math.floor(Math.random() * 90_000) },
              },
              metadata: { customer, source: 'checkout' },
            };
      // The payments team sends its settlements itself; the default tenant everything else.
      const isSettlement = body.action === 'HTTP_REQUEST' && Math.random() < 0.4;
      await (isSettlement ? payments : api.client).post('/actions', body);
      created += 1;
      await sleep(200 + Math.random() * 400);
    }
    // Some work scheduled for later, so the counts show what is waiting too.
    const later: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      // A quarter of them the payments team's: its quota use shows what waits.
      const response = await (i % 4 === 3 ? payments : api.client).post<{ id: string }>('/actions', {
        action: 'SEND_NOTIFICATION',
        executionTime: Date.now() + (i + 1) * 3_600_000,
        data: {
          notificationType: 'EMAIL',
          email: 'billing@example.com',
          templateType: 'SUBSCRIPTION_RENEWAL_REMINDER',
          subject: 'Renewal',
          name: pick(customers),
        },
        repeat: true,
        frequency: 'MONTHLY',
        executionRemainder: 12,
        jitterMs: 600_000,
      });
      later.push(response.body.id);
    }
    await api.client.post(`/actions/${later[0]}/pause`, { note: 'customer on holiday until March' });
    await holidayCalendars(api.client);
    const failed = await waitUntil(
      'a FAILED action',
      async () => (await api.client.get<{ items: { id: string }[] }>('/actions?status=FAILED&limit=1')).body.items[0],
      60_000,
    );

    const context = await consoleContext(browser, api.client.baseUrl, { timezoneId: 'Asia/Kuala_Lumpur' });
    const page = await context.newPage();
    await page.goto('/admin');
    await page.screenshot({ path: join(images, 'console-overview.png'), fullPage: true });
    await page.goto(`/admin/actions/${failed.id}`);
    await page.screenshot({ path: join(images, 'console-action.png'), fullPage: true });
    await page.goto(`/admin/actions/${later[0]}`);
    await page.screenshot({ path: join(images, 'console-action-controls.png'), fullPage: true });
    await page.goto('/admin/webhooks');
    await page.screenshot({ path: join(images, 'console-webhooks.png'), fullPage: true });
    await page.goto('/admin/calendars');
    await page.screenshot({ path: join(images, 'console-calendars.png'), fullPage: true });
    await page.goto('/admin/tenants');
    await page.screenshot({ path: join(images, 'console-tenants.png'), fullPage: true });
    await context.close();
    process.stdout.write(`Created ${created} actions; wrote the console's six screenshots to ${images}\n`);
  } finally {
    await browser.close();
    await worker.close();
    await api.close();
    await Promise.all([partner.stop(), billing.stop()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
