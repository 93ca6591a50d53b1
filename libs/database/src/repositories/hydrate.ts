import { EntityMetadata, ObjectLiteral } from 'typeorm';

/** Turns a raw row from `RETURNING *` (column names) into an entity (property names). */
export function hydrate<T extends ObjectLiteral>(metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    if (column.databaseName in row) column.setEntityValue(entity, row[column.databaseName]);
  }
  return entity;
}
