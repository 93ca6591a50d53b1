import { Client } from 'pg';

/** How many actions are stored with `metadata.run` = `run`, read on a connection of its own (specs whose APIs run as processes). */
export async function storedActionsOf(run: string): Promise<number> {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const [row] = (await db.query(`SELECT count(*)::int AS n FROM actions WHERE metadata->>'run' = $1`, [run])).rows as { n: number }[];
    return row.n;
  } finally {
    await db.end();
  }
}
