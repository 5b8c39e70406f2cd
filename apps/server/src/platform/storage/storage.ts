import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BizCode } from '@huafang/contracts';
import { BizError } from '../errors.js';

/** What a user reads when a write fails for lack of disk space (files or the database). */
export const DISK_FULL_MESSAGE = '服务器存储空间已满，请联系管理员';

/**
 * Error codes of a full disk: the file system (ENOSPC), a user quota (EDQUOT), SQLite (SQLITE_FULL) and
 * PostgreSQL (53100 disk_full). The cause chain is followed, since engines and drivers wrap errors.
 */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

export function isDiskFull(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (DISK_FULL_CODES.has(String((e as NodeJS.ErrnoException).code))) return true;
  }
  return false;
}

/** HTTP 507 Insufficient Storage: the request was fine, the server has no room to keep it. */
export const diskFull = () => new BizError(BizCode.FAIL, DISK_FULL_MESSAGE, 507);

/** Where file bytes live: local disk in embedded mode, object storage in scale-out mode. */
export interface Storage {
  put(key: string, bytes: Buffer): Promise<void>;
  read(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
  /** Health: fails when the storage cannot serve; creates nothing new (probes come every few seconds). */
  probe(): Promise<void>;
}

/** The one key a local probe writes, over and over: a full disk or a read-only mount fails it. */
export const PROBE_KEY = 'health/probe';

export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Storage key escapes root: ${key}`);
    return full;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const full = this.pathOf(key);
    await mkdir(path.dirname(full), { recursive: true });
    // Write then rename so a reader never sees half a file; the random part keeps two processes sharing one
    // DATA_DIR from writing the same key into one temporary file.
    const partial = `${full}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await writeFile(partial, bytes);
      await rename(partial, full);
    } catch (err) {
      // A write cut short (a full disk) must not leave its half file taking space.
      await rm(partial, { force: true });
      throw err;
    }
  }

  async read(key: string): Promise<Readable | null> {
    // Opened here, not when the stream starts: a file another process removes meanwhile still reads whole.
    try {
      return (await open(this.pathOf(key), 'r')).createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async probe(): Promise<void> {
    await this.put(PROBE_KEY, Buffer.from('ok'));
  }
}

/**
 * The whole of a stored file, for the places that need bytes rather than a stream (engine inputs, labelling). The
 * chunks are joined once, not copied first: a zip of works reads every original through here.
 */
export async function readBytes(stream: Readable): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
  return Buffer.concat(chunks);
}
