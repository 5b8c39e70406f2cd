import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where file bytes live: local disk in embedded mode, object storage in scale-out mode. */
export interface Storage {
  put(key: string, bytes: Buffer): Promise<void>;
  read(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
}

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
    // Write then rename so a reader never sees half a file.
    const partial = `${full}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, full);
  }

  async read(key: string): Promise<Readable | null> {
    const full = this.pathOf(key);
    try {
      await stat(full);
    } catch {
      return null;
    }
    return createReadStream(full);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** The whole of a stored file, for the few places that need bytes rather than a stream (engine inputs). */
export async function readBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
