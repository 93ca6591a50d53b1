import { postgresGroupCommit } from './postgres-group-commit';

describe('postgresGroupCommit', () => {
  it('fails the whole batch at once when the database is unreachable', async () => {
    let calls = 0;
    const group = postgresGroupCommit<number, number>(async () => {
      calls += 1;
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const results = await Promise.all([1, 2, 3].map((i) => group.submit(i).catch((e: Error) => e.message)));
    expect(results).toEqual(Array(3).fill('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(calls).toBe(2);
  });
});
