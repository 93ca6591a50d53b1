import { offsetStretchFrom, offsetStretchUntil, wallTime } from './zoned-time';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The offset at `instant` as the zone data gives it, read afresh. */
const offsetRead = (instant: number, zone: string) => wallTime(new Date(instant), zone).getTime() - instant;

/** Each instant at which `zone`'s clocks change in the years given, found by bisecting weekly samples. */
function changesOf(zone: string, fromYear: number, toYear: number): number[] {
  const changes: number[] = [];
  for (let sample = Date.UTC(fromYear, 0, 1); sample < Date.UTC(toYear + 1, 0, 1); sample += WEEK_MS) {
    if (offsetRead(sample, zone) === offsetRead(sample + WEEK_MS, zone)) continue;
    let [low, high] = [sample, sample + WEEK_MS];
    while (high - low > 1) {
      const middle = low + Math.floor((high - low) / 2);
      if (offsetRead(middle, zone) === offsetRead(low, zone)) low = middle;
      else high = middle;
    }
    changes.push(high);
  }
  return changes;
}

describe('offsets remembered by the hour', () => {
  // Zones whose clocks change by half an hour, at odd minutes, twice around Ramadan, or not at whole hours.
  it.each(['Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Africa/Casablanca', 'America/Santiago', 'America/St_Johns'])(
    'are the zone data’s at every instant around each clock change of %s',
    (zone) => {
      const changes = changesOf(zone, 2024, 2027);
      expect(changes.length).toBeGreaterThan(0);
      for (const change of changes) {
        for (const delta of [-3_600_001, -3_600_000, -1_800_000, -60_000, -1, 0, 1, 60_000, 1_800_000, 3_599_999, 3_600_000]) {
          const instant = change + delta;
          expect([zone, instant, offsetStretchFrom(instant, zone).offset]).toEqual([zone, instant, offsetRead(instant, zone)]);
          expect([zone, instant, offsetStretchUntil(instant + 1, zone).offset]).toEqual([zone, instant, offsetRead(instant, zone)]);
        }
      }
    },
  );
});
