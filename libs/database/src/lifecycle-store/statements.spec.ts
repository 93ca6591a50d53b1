import { getMetadataArgsStorage } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { UnnestColumns } from '../repositories/unnest-columns';
import { APPLY_CHANGES_SQL, CHANGE_COLUMNS } from './apply-changes.statement';
import { CLAIM_COLUMNS, CLAIM_SQL } from './claim.statement';
import { INSERT_ACTIONS_SQL, NEW_ACTION_COLUMNS } from './insert-actions.statement';
import { OUTCOME_COLUMNS, RECORD_OUTCOMES_SQL } from './record-outcomes.statement';
import { STATE_COLUMNS, STATE_FIELDS } from './state-columns';

const withoutSpace = (text: string) => text.replace(/\s+/g, '');

// Each statement's text is written out in its file; its parameters are built from a column list.
// The two must name the same columns, of the same types, in the same order.
describe("The lifecycle store's statements", () => {
  it.each<[string, string, UnnestColumns<never>, string]>([
    ['insert', INSERT_ACTIONS_SQL, NEW_ACTION_COLUMNS, 'n'],
    ['claim', CLAIM_SQL, CLAIM_COLUMNS, 'r'],
    ['outcome', RECORD_OUTCOMES_SQL, OUTCOME_COLUMNS, 'o'],
    ['change', APPLY_CHANGES_SQL, CHANGE_COLUMNS, 'c'],
  ])('%s: its unnest lists the parameters its column list builds', (_name, sql, columns, alias) => {
    expect(withoutSpace(sql)).toContain(withoutSpace(columns.rows(alias)));
  });

  it('lets a change write every lifecycle column, each from the value it sends', () => {
    for (const [column] of Object.values(STATE_COLUMNS)) {
      expect([column, withoutSpace(APPLY_CHANGES_SQL).includes(`n.${column},`) || withoutSpace(APPLY_CHANGES_SQL).includes(`n.${column}FROM`)]).toEqual([
        column,
        true,
      ]);
    }
  });

  it("names every lifecycle field's column as the entity declares it", () => {
    const declared = getMetadataArgsStorage().columns.filter((column) => column.target === ActionEntity);
    for (const field of STATE_FIELDS) {
      const column = declared.find((c) => c.propertyName === field);
      expect([field, STATE_COLUMNS[field][0]]).toEqual([field, column?.options.name ?? field]);
      // json and jsonb travel as text; every other type as itself (varchar, text, integer, boolean, timestamptz).
      const travelsAs = column?.options.type === 'jsonb' || column?.options.type === 'json' ? 'text' : column?.options.type;
      expect([field, STATE_COLUMNS[field][1]]).toEqual([field, travelsAs]);
    }
  });
});
