import { audit, RecordedOccurrence } from './audit';
import { PlannedAction } from './plan';
import { Arrival } from './receivers';

const call = (key: string, at: number, extra: Partial<Arrival> = {}): Arrival => ({ key, at, status: 200, answered: true, overlapped: false, ...extra });
const plan = (dues: number[], behaviour: PlannedAction['behaviour'] = 'ok'): PlannedAction => ({ dues, behaviour });
const claimed = (entries: Record<string, Partial<RecordedOccurrence>>) =>
  new Map(Object.entries(entries).map(([key, r]) => [key, { claims: 1, successes: 1, ...r }]));

describe('the soak audit', () => {
  it('counts nothing against a run where every occurrence was called once, on time', () => {
    const figures = audit(new Map([['a', plan([1000, 2000])]]), [call('a:1', 1010), call('a:2', 2030)], claimed({ 'a:1': {}, 'a:2': {} }));
    expect(figures).toMatchObject({ actions: 1, occurrences: 2, lost: 0, doubled: 0, early: 0, unscheduled: 0, unknown: 0, retriedOccurrences: 0 });
    expect([figures.lateP50, figures.lateMax]).toEqual([30, 30]);
  });

  it('finds an occurrence never called, one whose only call failed, and one whose answer never got out', () => {
    const planned = new Map([
      ['a', plan([1000, 2000])],
      ['b', plan([1000], 'fail-once')],
      ['c', plan([1000])],
    ]);
    const arrivals = [call('a:1', 1000), call('b:1', 1000, { status: 500 }), call('c:1', 1000, { answered: false })];
    expect(audit(planned, arrivals, claimed({ 'a:1': {}, 'b:1': {}, 'c:1': {} })).lost).toBe(3);
  });

  it('finds an occurrence run twice: succeeded twice, called while its call was running, or called without a claim', () => {
    const planned = new Map(['a', 'b', 'c'].map((id) => [id, plan([1000])]));
    const arrivals = [
      call('a:1', 1000),
      call('a:1', 1500),
      call('b:1', 1000),
      call('b:1', 1001, { overlapped: true }),
      call('c:1', 1000),
      call('c:1', 1600),
    ];
    const recorded = claimed({ 'a:1': { claims: 2, successes: 2 }, 'b:1': { claims: 2 }, 'c:1': { claims: 1 } });
    expect(audit(planned, arrivals, recorded).doubled).toBe(3);
  });

  it('counts a retry after an interruption, but not the retry a planned failure asks for', () => {
    const planned = new Map([
      ['a', plan([1000])],
      ['b', plan([1000], 'fail-once')],
    ]);
    const arrivals = [call('a:1', 1000, { answered: false }), call('a:1', 7000), call('b:1', 1000, { status: 500 }), call('b:1', 1600)];
    const figures = audit(planned, arrivals, claimed({ 'a:1': { claims: 2 }, 'b:1': { claims: 2 } }));
    expect(figures).toMatchObject({ retriedOccurrences: 1, retriedCalls: 1, lost: 0, doubled: 0 });
  });

  it('finds a call before its due time, an occurrence past the schedule and a call for no action', () => {
    const arrivals = [call('a:1', 999), call('a:2', 3000), call('zzz:1', 1000)];
    expect(audit(new Map([['a', plan([1000])]]), arrivals, claimed({ 'a:1': {}, 'a:2': {} }))).toMatchObject({ early: 1, unscheduled: 1, unknown: 1 });
  });
});
