import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on one pooled connection inside BEGIN … COMMIT; on any error rolls back and
 * rethrows it. A connection whose rollback also failed is discarded, not returned to the pool.
 */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
