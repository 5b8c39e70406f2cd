import * as fs from 'node:fs/promises';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { createDatabase } from '../../../src/platform/db/database.js';
import { isDiskFull, LocalDiskStorage } from '../../../src/platform/storage/storage.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, writeFile: vi.fn(actual.writeFile) };
});

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'huafang-full-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  vi.mocked(fs.writeFile).mockReset();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

it('removes the half-written file when the disk fills up during a put', async () => {
  const root = await tempDir();
  const storage = new LocalDiskStorage(root);
  const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
  vi.mocked(fs.writeFile).mockImplementationOnce(async (file, data) => {
    // The disk takes half the bytes, then refuses the rest.
    await actual.writeFile(file as string, (data as Buffer).subarray(0, 4));
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
  const failure = await storage.put('works/a.png', Buffer.from('12345678')).catch((err: unknown) => err);
  expect(isDiskFull(failure)).toBe(true);
  expect(await readdir(path.join(root, 'works'))).toEqual([]);
});

it('lets the real SQLite error of a full database through a failed transaction', async () => {
  const db = createDatabase({ kind: 'sqlite', file: path.join(await tempDir(), 'full.db') });
  try {
    await sql`create table notes (text text)`.execute(db);
    const { page_count: pages } = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!;
    // The database may not grow: as on a full disk, SQLite answers SQLITE_FULL and rolls back by itself.
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db);
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 20; i++) await sql`insert into notes values (${'x'.repeat(4000)})`.execute(trx);
      })
      .catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'SQLITE_FULL' });
    expect(isDiskFull(failure)).toBe(true);
  } finally {
    await db.destroy();
  }
});
