/** One column of a batch: its name in the statement, its Postgres type, and how to read it from an item. */
export type UnnestColumn<T> = readonly [name: string, sqlType: string, pick: (item: T) => unknown];

/**
 * A batch passed to a statement as one array parameter per column and read back as rows with
 * `unnest`, so the statement's text (and plan) is the same for any number of items. Names,
 * types, parameter numbers and values come from one list and cannot drift apart.
 */
export class UnnestColumns<T> {
  constructor(private readonly columns: readonly UnnestColumn<T>[]) {}

  /** `unnest($1::type[], …) AS alias(name, …)`, for a FROM clause. */
  rows(alias: string): string {
    const arrays = this.columns.map(([, sqlType], i) => `$${i + 1}::${sqlType}[]`).join(', ');
    return `unnest(${arrays}) AS ${alias}(${this.columns.map(([name]) => name).join(', ')})`;
  }

  /** The statement's parameters for these items. */
  values(items: readonly T[]): unknown[][] {
    return this.columns.map(([, , pick]) => items.map(pick));
  }
}
