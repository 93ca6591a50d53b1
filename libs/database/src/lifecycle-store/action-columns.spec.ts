import { actionColumn, actionParameter, columnList, selectedColumns } from './action-columns';

// The statements' column lists are built from entity properties; these pin how a property becomes a column.
describe('actionColumn and the lists built from it', () => {
  it("names a property's column as its decorator does, or by the property when the decorator gives no name", () => {
    expect([actionColumn('retryCount'), actionColumn('nextAttemptAt'), actionColumn('status')]).toEqual(['retry_count', 'next_attempt_at', 'status']);
  });

  it("sends a property as its column's type, json and jsonb as text", () => {
    const types = (['id', 'revision', 'retryPolicy', 'data', 'executionTime'] as const).map((field) => actionParameter(field, () => null).slice(0, 2));
    expect(types).toEqual([
      ['id', 'uuid'],
      ['revision', 'integer'],
      ['retry_policy', 'text'],
      ['data', 'text'],
      ['execution_time', 'timestamptz'],
    ]);
  });

  it('lists columns in the order given, casting json back from text only when asked', () => {
    expect(columnList(['tenantId', 'dstPolicy'])).toBe('tenant_id, dst_policy');
    expect(selectedColumns(['tenantId', 'dstPolicy', 'metadata'], 'n')).toBe('n.tenant_id, n.dst_policy, n.metadata');
    expect(selectedColumns(['tenantId', 'dstPolicy', 'metadata'], 'n', { castJson: true })).toBe('n.tenant_id, n.dst_policy::jsonb, n.metadata::json');
  });

  it('refuses a property that has no column', () => {
    expect(() => actionColumn('notAColumn' as never)).toThrow('ActionEntity.notAColumn has no column');
  });
});
