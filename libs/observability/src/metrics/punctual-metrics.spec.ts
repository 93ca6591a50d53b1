import { loadConfig } from '@app/config';
import { Scrape } from '@app/testing';
import { FIRING_LAG_BUCKETS, MetricsProcess, PunctualMetrics } from './punctual-metrics';

const env = { API_KEYS: 'k:0123456789abcdef,b:0123456789abcdef:team-b', ADMIN_PASSWORD: 'long-enough' };
const metricsWith = (extra: Record<string, string> = {}, process: MetricsProcess = 'worker') =>
  new PunctualMetrics(loadConfig({ ...env, ...extra }), ['HTTP_REQUEST', 'SEND_NOTIFICATION'], process);

describe('PunctualMetrics', () => {
  it('records what the processes report, under bounded labels', async () => {
    const metrics = metricsWith();
    metrics.actionsCreated([
      { action: 'HTTP_REQUEST', tenantId: 'default' },
      { action: 'HTTP_REQUEST', tenantId: 'default' },
      { action: 'HTTP_REQUEST', tenantId: 'team-b' },
      { action: 'SEND_NOTIFICATION', tenantId: 'default' },
    ]);
    metrics.attemptEnded({ action: 'HTTP_REQUEST', tenantId: 'team-b' }, 'failed');
    metrics.attemptStarted('HTTP_REQUEST', 1500);
    metrics.attemptStarted('HTTP_REQUEST', -20); // a worker clock behind Postgres's: not an early run
    metrics.overdueActions(7);
    metrics.httpRequest('GET', '/actions/:id', 404, 0.003);
    const scrape = Scrape.parse(await metrics.exposition());
    expect(scrape.value('punctual_actions_created_total', { action: 'HTTP_REQUEST', tenant: 'default' })).toBe(2);
    expect(scrape.value('punctual_actions_created_total', { action: 'HTTP_REQUEST', tenant: 'team-b' })).toBe(1);
    expect(scrape.value('punctual_actions_created_total', { action: 'SEND_NOTIFICATION', tenant: 'default' })).toBe(1);
    expect(scrape.value('punctual_attempts_total', { action: 'HTTP_REQUEST', outcome: 'failed', tenant: 'team-b' })).toBe(1);
    expect(scrape.value('punctual_attempts_total', { action: 'HTTP_REQUEST', outcome: 'failed', tenant: 'default' })).toBe(0);
    // The tenants of API_KEYS have their series from the start.
    expect(scrape.labelValues('punctual_attempts_total', 'tenant')).toEqual(['default', 'team-b']);
    expect(scrape.value('punctual_firing_lag_seconds_sum', { action: 'HTTP_REQUEST' })).toBe(1.5);
    expect(scrape.value('punctual_firing_lag_seconds_bucket', { action: 'HTTP_REQUEST', le: '0.001' })).toBe(1);
    expect(scrape.value('punctual_firing_lag_seconds_bucket', { action: 'HTTP_REQUEST', le: '2.5' })).toBe(2);
    expect(scrape.value('punctual_overdue_actions')).toBe(7);
    expect(scrape.value('punctual_http_request_duration_seconds_count', { method: 'GET', route: '/actions/:id', status: '404' })).toBe(1);
  });

  it("exports in an API only the series an API counts, none of the workers'", async () => {
    const names = (process: MetricsProcess) =>
      metricsWith({}, process)
        .exposition()
        .then((text) => Scrape.parse(text).names());
    const workerOnly = ['punctual_attempts_total', 'punctual_firing_lag_seconds_count', 'punctual_overdue_actions', 'punctual_webhook_deliveries_total'];
    const shared = ['punctual_actions_created_total', 'punctual_occurrences_skipped_total', 'punctual_ready', 'process_cpu_user_seconds_total'];
    expect(await names('worker')).toEqual(expect.arrayContaining([...workerOnly, ...shared]));
    const api = await names('api');
    expect(api).toEqual(expect.arrayContaining(shared));
    expect(workerOnly.filter((name) => api.includes(name))).toEqual([]);
  });

  it('lag buckets resolve 1 ms to 10 min', () => {
    expect(FIRING_LAG_BUCKETS[0]).toBe(0.001);
    expect(FIRING_LAG_BUCKETS.at(-1)).toBe(600);
  });

  it('records nothing when METRICS_ENABLED=false', async () => {
    const metrics = metricsWith({ METRICS_ENABLED: 'false' });
    metrics.actionsCreated([{ action: 'HTTP_REQUEST', tenantId: 'default' }]);
    metrics.overdueActions(3);
    const scrape = Scrape.parse(await metrics.exposition());
    expect(metrics.isEnabled).toBe(false);
    expect(scrape.value('punctual_actions_created_total')).toBe(0);
    expect(scrape.value('punctual_overdue_actions')).toBe(0);
  });

  it('gives two processes in one the same names without clashing', async () => {
    const [first, second] = [metricsWith(), metricsWith()];
    first.attemptEnded({ action: 'HTTP_REQUEST', tenantId: 'default' }, 'succeeded');
    expect(Scrape.parse(await second.exposition()).value('punctual_attempts_total', { outcome: 'succeeded' })).toBe(0);
    expect(Scrape.parse(await first.exposition()).names()).toEqual(Scrape.parse(await second.exposition()).names());
  });
});
