import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { loadConfig } from '@app/config';
import { Scrape } from '@app/testing';
import { PunctualMetrics } from './punctual-metrics';

const DOCS = join(__dirname, '..', '..', '..', '..', 'docs');
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'by',
  'without',
  'or',
  'and',
  'unless',
  'bool',
  'on',
  'ignoring',
]);
/** Labels Punctual's metrics carry, and those Prometheus adds to every scraped series. */
const LABELS = new Set(['action', 'outcome', 'method', 'route', 'status', 'le', 'job', 'instance']);

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}
interface Panel {
  title: string;
  targets: { expr: string }[];
}

/** Metric names and label names an expression uses (quoted values, ranges and numbers left out). */
function references(expr: string): { metrics: string[]; labels: string[] } {
  const labels = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1].matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/g)].map((l) => l[1]));
  labels.push(...[...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((m) => m[1].split(',').map((l) => l.trim())));
  const bare = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '');
  const metrics = [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((word) => !PROMQL_WORDS.has(word));
  return { metrics, labels };
}

describe('the operator documents', () => {
  let known: Set<string>;
  const rules = (load(readFileSync(join(DOCS, 'alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
  const panels = (JSON.parse(readFileSync(join(DOCS, 'grafana-dashboard.json'), 'utf8')) as { panels: Panel[] }).panels;

  beforeAll(async () => {
    const metrics = new PunctualMetrics(loadConfig({ API_KEYS: 'k:0123456789abcdef', ADMIN_PASSWORD: 'long-enough' }), ['HTTP_REQUEST'], 'worker');
    metrics.httpRequest('GET', '/health', 200, 0.001); // a labelled histogram shows its series once observed
    known = new Set([...Scrape.parse(await metrics.exposition()).names(), 'up']);
  });

  it('alerts.yml holds the four example rules, each complete', () => {
    expect(rules.map((rule) => rule.alert)).toEqual([
      'PunctualOverdueActions',
      'PunctualFailureRateHigh',
      'PunctualFiringLagHigh',
      'PunctualWorkerNotReady',
    ]);
    for (const rule of rules) {
      expect(rule).toEqual(
        expect.objectContaining({
          expr: expect.any(String),
          for: expect.stringMatching(/^\d+m$/),
          labels: { severity: expect.stringMatching(/^(warning|critical)$/) },
        }),
      );
      expect(rule.annotations).toEqual({ summary: expect.any(String), description: expect.any(String) });
    }
  });

  it('every rule and every dashboard query names metrics and labels that exist', () => {
    const exprs = [...rules.map((rule) => rule.expr), ...panels.flatMap((panel) => panel.targets.map((target) => target.expr))];
    for (const expr of exprs) {
      const { metrics, labels } = references(expr);
      expect(metrics.length).toBeGreaterThan(0);
      for (const metric of metrics) expect({ expr, metric, known: known.has(metric) }).toEqual({ expr, metric, known: true });
      for (const label of labels) expect({ expr, label, known: LABELS.has(label) }).toEqual({ expr, label, known: true });
    }
  });

  it('the dashboard plots what every alert watches', () => {
    const plotted = new Set(panels.flatMap((panel) => panel.targets.flatMap((target) => references(target.expr).metrics)));
    for (const rule of rules) for (const metric of references(rule.expr).metrics) expect(plotted).toContain(metric);
  });

  const promtool = (() => {
    try {
      execFileSync('promtool', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (promtool ? it : it.skip)('promtool accepts the rules and their unit tests pass (only where promtool is installed)', () => {
    execFileSync('promtool', ['check', 'rules', join(DOCS, 'alerts.yml')], { stdio: 'pipe' });
    execFileSync('promtool', ['test', 'rules', join(DOCS, 'alerts.test.yml')], { stdio: 'pipe' });
  });
});
