import { MinuteActivity } from '@app/database';
import { activityCharts, lagScaleTop } from './activity-chart.view';

/** An hour of minutes that all started attempts with these lags (p50, p99 in ms). */
function hour(lags: readonly (readonly [number, number])[]): MinuteActivity[] {
  return lags.map(([p50, p99], i) => ({
    minute: new Date(Date.UTC(2026, 10, 28, 12, i)),
    succeeded: 1,
    failed: 0,
    noAction: 0,
    started: 1,
    lagP50Ms: p50,
    lagP99Ms: p99,
  }));
}

describe('the lag chart', () => {
  const calm = Array.from({ length: 58 }, (_, i) => [20, 40 + (i % 5) * 10] as const);

  it('keeps the scale of the typical minutes when a few are far above them, and says so', () => {
    // Two minutes of a ten-minute outage's catch-up among an hour of tens of milliseconds.
    const minutes = hour([...calm, [300_000, 600_000], [200_000, 590_000]]);
    const top = lagScaleTop(minutes);
    expect(top).toBeLessThan(1_000);
    const chart = activityCharts(minutes).value;
    expect(chart).toContain('2 minutes above it, drawn at the top, up to 10 min');
    expect(chart.match(/class="dot-p99 off-scale"/g)).toHaveLength(2);
  });

  it('keeps every minute on the scale when none stands out, its top the highest p99', () => {
    const minutes = hour([...calm, [50, 120]]);
    expect(lagScaleTop(minutes)).toBe(120);
    expect(activityCharts(minutes).value).not.toContain('off-scale');
  });

  it("marks a minute's p50 too when it is above the scale", () => {
    const chart = activityCharts(hour([...calm, [5_000, 6_000]])).value;
    expect(chart).toContain('1 minute above it, drawn at the top, up to 6 s');
    expect(chart.match(/off-scale/g)).toHaveLength(2);
  });
});
