/**
 * What a freshly started API tells a person at a terminal: where each of its doors is, at the
 * port it really bound. The first line is also what scripts and specs wait for.
 */
export function startupBanner(port: number, metricsEnabled: boolean): string {
  const base = `http://localhost:${port}`;
  return [
    `Punctual API listening on ${base}`,
    `  Console     ${base}/admin  (ADMIN_USER and ADMIN_PASSWORD)`,
    `  Bull Board  ${base}/admin/queues`,
    `  API docs    ${base}/docs`,
    `  Metrics     ${metricsEnabled ? `${base}/metrics` : 'off (METRICS_ENABLED=false)'}`,
  ].join('\n');
}
