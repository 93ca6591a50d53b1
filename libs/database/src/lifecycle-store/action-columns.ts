import { getMetadataArgsStorage } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { UnnestColumn } from '../repositories/unnest-columns';

/** A property of ActionEntity: a misspelt or removed one fails to compile. */
export type ActionField = keyof ActionEntity;

/** Each ActionEntity property's column options, as its decorator declares them. */
const DECLARED = new Map(
  getMetadataArgsStorage()
    .columns.filter((column) => column.target === ActionEntity)
    .map((column) => [column.propertyName, column.options]),
);

function declared(field: ActionField) {
  const options = DECLARED.get(field);
  if (!options) throw new Error(`ActionEntity.${field} has no column`);
  return options;
}

/** The column of an ActionEntity property, as its decorator names it: statements name columns through this. */
export function actionColumn(field: ActionField): string {
  return declared(field).name ?? field;
}

/** Whether the property's column is json or jsonb: its values travel as JSON text, cast in the statement. */
export function isJsonField(field: ActionField): boolean {
  const { type } = declared(field);
  return type === 'json' || type === 'jsonb';
}

/** The type a property's values travel as in a batch parameter: the column's, json and jsonb as text. */
function travelsAs(field: ActionField): string {
  return isJsonField(field) ? 'text' : String(declared(field).type);
}

/** The property as a batch column of the same name and type as its column in `actions`. */
export function actionParameter<T>(field: ActionField, pick: (item: T) => unknown): UnnestColumn<T> {
  return [actionColumn(field), travelsAs(field), pick];
}

/** `alias.column` for the column of each property, as the source of a statement's SELECT or SET; json and jsonb cast back from text. */
export function selectedColumns(fields: readonly ActionField[], alias: string, { castJson = false } = {}): string {
  return fields
    .map((field) => {
      const value = `${alias}.${actionColumn(field)}`;
      return castJson && isJsonField(field) ? `${value}::${String(declared(field).type)}` : value;
    })
    .join(', ');
}

/** The columns of the properties, as a statement's column list. */
export function columnList(fields: readonly ActionField[]): string {
  return fields.map(actionColumn).join(', ');
}
