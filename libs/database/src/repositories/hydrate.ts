import { EntityMetadata, ObjectLiteral } from 'typeorm';

/** Per entity: an object holding each column's property, which a new entity is cloned from. */
const templates = new WeakMap<EntityMetadata, ObjectLiteral>();

/**
 * Turns a raw row from `RETURNING *` (column names) into an entity (property names). The entity
 * starts as a clone of an object that already has every property, so filling it in changes no
 * property's existence: an object given more than a dozen new properties by computed name (as
 * TypeORM's own loading does) falls back to a dictionary, which makes every later read of it and
 * every copy (`{ ...action, ...changes }`) several times slower.
 */
export function hydrate<T extends ObjectLiteral>(metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity = blankEntity<T>(metadata);
  for (const column of metadata.columns) {
    if (column.databaseName in row) column.setEntityValue(entity, row[column.databaseName]);
  }
  return entity;
}

/** An entity of the class `metadata` describes with every column's property present and undefined, to be filled in. */
export function blankEntity<T extends ObjectLiteral>(metadata: EntityMetadata): T {
  return Object.setPrototypeOf(
    { ...templateOf(metadata) },
    metadata.target instanceof Function ? (metadata.target.prototype as object) : Object.prototype,
  ) as T;
}

function templateOf(metadata: EntityMetadata): ObjectLiteral {
  let template = templates.get(metadata);
  if (!template) {
    const properties: ObjectLiteral = {};
    for (const column of metadata.columns) properties[column.propertyName] = undefined;
    // A spread copy has the fast shape whatever the original's.
    template = { ...properties };
    templates.set(metadata, template);
  }
  return template;
}

/**
 * Turns a row stored as JSON (`to_json` of a row: column names, times as text) into an entity,
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
