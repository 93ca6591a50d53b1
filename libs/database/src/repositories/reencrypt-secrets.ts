import { DataSource } from 'typeorm';

/** A table whose rows hold a secret encrypted under the key ring, in `secret_ciphertext`. */
export interface SecretTable {
  name: 'webhook_subscriptions' | 'api_keys';
  /** Its primary key column. */
  id: string;
}

/**
 * Encrypts again, with the ring's first key, every secret of `table` that `isStale` says an older
 * key made. A row changed meanwhile keeps its new value (the update is conditional on the old one).
 */
export async function reencryptStaleSecrets(
  dataSource: DataSource,
  table: SecretTable,
  isStale: (ciphertext: string) => boolean,
  reencrypt: (ciphertext: string) => string,
): Promise<number> {
  const rows: { id: string; ciphertext: string }[] = await dataSource.query(
    `SELECT ${table.id} AS id, secret_ciphertext AS ciphertext FROM ${table.name}`,
  );
  const stale = rows.filter((row) => isStale(row.ciphertext));
  for (const row of stale) {
    await dataSource.query(`UPDATE ${table.name} SET secret_ciphertext = $2 WHERE ${table.id} = $1 AND secret_ciphertext = $3`, [
      row.id,
      reencrypt(row.ciphertext),
      row.ciphertext,
    ]);
  }
  return stale.length;
}
