import { onPostgresAdmin } from './services.js';

/**
 * What an administrator or a failover does to a server: `rounds` times, every `intervalMs`, the connections to
 * one database are ended from outside (pg_terminate_backend). Resolves with how many connections were ended.
 */
export function terminateConnections(database: string, rounds: number, intervalMs: number): Promise<number> {
  return onPostgresAdmin(async (admin) => {
    let ended = 0;
    for (let round = 0; round < rounds; round++) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      const res = await admin.query(
        'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      );
      ended += res.rows.filter((row) => row.ended).length;
    }
    return ended;
  });
}

/** Runs `read` in `readers` loops at once until `until` settles; returns every answer. */
export async function readWhile<T>(readers: number, read: () => Promise<T>, until: Promise<unknown>): Promise<T[]> {
  const answers: T[] = [];
  let done = false;
  const finished = until.finally(() => {
    done = true;
  });
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (!done) answers.push(await read());
    }),
  );
  await finished;
  return answers;
}
