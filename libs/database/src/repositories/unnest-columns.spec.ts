import { UnnestColumns } from './unnest-columns';

describe('UnnestColumns', () => {
  const columns = new UnnestColumns<{ id: string; n: number }>([
    ['id', 'uuid', (item) => item.id],
    ['doubled', 'integer', (item) => item.n * 2],
  ]);

  it('numbers one typed array parameter per column and names the rows', () => {
    expect(columns.rows('r')).toBe('unnest($1::uuid[], $2::integer[]) AS r(id, doubled)');
  });

  it('turns items into one array per column, in column order', () => {
    expect(
      columns.values([
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ]),
    ).toEqual([
      ['a', 'b'],
      [2, 4],
    ]);
  });
});
