import { MinuteActivity } from '@app/database';
import { count, dataTable, duration, timeTag } from './fragments';
import { SafeHtml, html } from './html';

const WIDTH = 600;
const HEIGHT = 140;
const TOP = 8;

const OUTCOMES = [
  { key: 'succeeded', label: 'succeeded' },
  { key: 'failed', label: 'failed' },
  { key: 'noAction', label: 'no action' },
] as const;

function minuteLabel(minute: Date): string {
  return `${minute.toISOString().slice(11, 16)} UTC`;
}

/** A value's height on a scale whose top is `max`; one above it is drawn at the top. */
function y(value: number, max: number): number {
  return TOP + (HEIGHT - TOP) * (1 - Math.min(value, max) / max);
}

/** A minute whose p99 is more than this many times the typical minutes' is off the lag chart's scale. */
const OUTLIER_FACTOR = 4;

/**
 * The top of the lag chart's scale: the highest p99 of the hour, unless a few minutes (a pause, an
 * outage's catch-up) are far above the rest, whose shape would then be a flat line along the bottom.
 * The scale then ends at OUTLIER_FACTOR times the 90th percentile of the minutes' p99, and the
 * minutes above it (their p99, and their p50 when it is above too) are drawn at the top, marked,
 * their figures on hover.
 */
export function lagScaleTop(minutes: readonly MinuteActivity[]): number {
  const p99s = minutes.flatMap((m) => (m.lagP99Ms === null ? [] : [m.lagP99Ms])).sort((a, b) => a - b);
  if (p99s.length === 0) return 1;
  const typical = p99s[Math.floor((p99s.length - 1) * 0.9)];
  return Math.max(1, Math.min(p99s[p99s.length - 1], typical * OUTLIER_FACTOR));
}

/** One bar per minute, stacked by outcome; hovering a minute tells its figures in UTC. */
function attemptsChart(minutes: MinuteActivity[], step: number): SafeHtml {
  const max = Math.max(1, ...minutes.map((m) => m.succeeded + m.failed + m.noAction));
  const bars = minutes.map((m, i) => {
    let base = 0;
    const segments = OUTCOMES.map(({ key }) => {
      const value = m[key];
      if (value === 0) return html``;
      const top = y(base + value, max);
      const bottom = y(base, max);
      base += value;
      return html`<rect class="bar-${key}" x="${i * step + 1}" y="${top.toFixed(1)}" width="${step - 2}" height="${(bottom - top).toFixed(1)}"></rect>`;
    });
    const figures = `${minuteLabel(m.minute)}: ${m.succeeded} succeeded, ${m.failed} failed, ${m.noAction} no action`;
    return html`<g
      >${segments}<rect class="hover" x="${i * step}" y="0" width="${step}" height="${HEIGHT}"><title>${figures}</title></rect></g
    >`;
  });
  const total = minutes.reduce((sum, m) => sum + m.succeeded + m.failed + m.noAction, 0);
  return html`<figure class="chart">
    <figcaption>Attempts per minute by outcome <span class="muted">(peak ${count(max)}/min, ${count(total)} in the hour)</span></figcaption>
    <svg
      viewBox="0 0 ${WIDTH} ${HEIGHT}"
      role="img"
      aria-label="Attempts per minute over the last hour: ${count(total)} in all, at most ${count(max)} in one minute"
    >
      <line class="axis" x1="0" y1="${HEIGHT}" x2="${WIDTH}" y2="${HEIGHT}"></line>
      ${bars}
    </svg>
    <ul class="legend">
      ${OUTCOMES.map(({ key, label }) => html`<li><span class="swatch bar-${key}"></span>${label}</li>`)}
    </ul>
  </figure>`;
}

/** The p50 and p99 of firing lag per minute as two lines, broken where no attempt started. */
function lagChart(minutes: MinuteActivity[], step: number): SafeHtml {
  const max = lagScaleTop(minutes);
  const offScale = minutes.filter((m) => (m.lagP99Ms ?? 0) > max);
  const line = (pick: (m: MinuteActivity) => number | null): string => {
    let path = '';
    let drawing = false;
    minutes.forEach((m, i) => {
      const value = pick(m);
      if (value === null) {
        drawing = false;
        return;
      }
      path += `${drawing ? 'L' : 'M'}${(i * step + step / 2).toFixed(1)} ${y(value, max).toFixed(1)} `;
      drawing = true;
    });
    return path.trim();
  };
  // A minute alone between gaps is a dot, not a line.
  const dots = (pick: (m: MinuteActivity) => number | null, className: string) =>
    minutes.map((m, i) => {
      const value = pick(m);
      if (value === null) return html``;
      const off = value > max ? ' off-scale' : '';
      return html`<circle
        class="${className}${off}"
        cx="${(i * step + step / 2).toFixed(1)}"
        cy="${y(value, max).toFixed(1)}"
        r="${off ? 3.5 : 2}"
      ></circle>`;
    });
  const hovers = minutes.map((m, i) => {
    const figures = m.started === 0 ? 'no attempt started' : `${m.started} started, lag p50 ${duration(m.lagP50Ms!)}, p99 ${duration(m.lagP99Ms!)}`;
    return html`<rect class="hover" x="${i * step}" y="0" width="${step}" height="${HEIGHT}"><title>${minuteLabel(m.minute)}: ${figures}</title></rect>`;
  });
  return html`<figure class="chart">
    <figcaption>
      Firing lag per minute, p50 and p99
      <span class="muted"
        >(top of the scale:
        ${duration(max)}${
          offScale.length > 0
            ? `; ${offScale.length === 1 ? '1 minute' : `${offScale.length} minutes`} above it, drawn at the top, up to ${duration(Math.max(...offScale.map((m) => m.lagP99Ms!)))}`
            : ''
        })</span
      >
    </figcaption>
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Firing lag per minute over the last hour; the scale ends at ${duration(max)}">
      <line class="axis" x1="0" y1="${HEIGHT}" x2="${WIDTH}" y2="${HEIGHT}"></line>
      <path class="line-p99" d="${line((m) => m.lagP99Ms)}"></path>
      ${dots((m) => m.lagP99Ms, 'dot-p99')}
      <path class="line-p50" d="${line((m) => m.lagP50Ms)}"></path>
      ${dots((m) => m.lagP50Ms, 'dot-p50')}${hovers}
    </svg>
    <ul class="legend">
      <li><span class="swatch line-p50"></span>p50</li>
      <li><span class="swatch line-p99"></span>p99</li>
    </ul>
  </figure>`;
}

/** The minutes that had any activity, as a table: the charts' figures for keyboard and screen-reader users. */
function figuresTable(minutes: MinuteActivity[]): SafeHtml {
  const active = minutes.filter((m) => m.succeeded + m.failed + m.noAction + m.started > 0).reverse();
  if (active.length === 0) return html`<p class="muted">No attempt in the last hour.</p>`;
  const lag = (ms: number | null) => (ms === null ? '—' : duration(ms));
  const rows = active.map(
    (m) =>
      html`<tr>
        <td>${timeTag(m.minute)}</td>
        <td>${m.succeeded}</td>
        <td>${m.failed}</td>
        <td>${m.noAction}</td>
        <td>${m.started}</td>
        <td>${lag(m.lagP50Ms)}</td>
        <td>${lag(m.lagP99Ms)}</td>
      </tr>`,
  );
  return html`<details id="minute-figures">
    <summary>Figures per minute</summary>
    ${dataTable(['Minute', 'Succeeded', 'Failed', 'No action', 'Started', 'Lag p50', 'Lag p99'], rows)}
  </details>`;
}

/** The last hour of attempts, drawn as inline SVG by the server: nothing to load, nothing to run. */
export function activityCharts(minutes: MinuteActivity[]): SafeHtml {
  const step = WIDTH / Math.max(1, minutes.length);
  const first = minutes[0]?.minute ?? null;
  return html`<div class="charts">${attemptsChart(minutes, step)}${lagChart(minutes, step)}</div>
    <p class="axis-note muted">From ${timeTag(first)} to now, one column per minute.</p>
    ${figuresTable(minutes)}`;
}
