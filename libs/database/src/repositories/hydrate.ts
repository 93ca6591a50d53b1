import { EntityMetadata, ObjectLiteral } from 'typeorm';

/** Turns a raw row from `RETURNING *` (column names) into an entity (property names). */
export function hydrate<T extends ObjectLiteral>(metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    if (column.databaseName in row) column.setEntityValue(entity, row[column.databaseName]);
  }
  return entity;
}

/**
 * Turns a row stored as JSON (`to_jsonb` of a row: column names, times as text) into an entity,
 * with its time columns as dates again.
 */
export function hydrateJson<T extends ObjectLiteral>(metadata: EntityMetadata, json: Record<string, unknown>): T {
  const row = { ...json };
  for (const column of metadata.columns) {
    const value = row[column.databaseName];
    if (column.type === 'timestamptz' && typeof value === 'string') row[column.databaseName] = new Date(value);
  }
  return hydrate<T>(metadata, row);
}
