import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../../src/platform/storage/s3-storage.js';
import { LocalDiskStorage, readBytes, type Storage } from '../../../src/platform/storage/storage.js';
import { startS3Server } from '../../helpers/s3-server.js';

type Opened = { storage: Storage; close(): Promise<void> };

/** Each kind of storage as the server builds it, on a place of its own. */
const kinds: { name: string; open(): Promise<Opened> }[] = [
  {
    name: 'LocalDiskStorage',
    async open() {
      const root = await mkdtemp(path.join(os.tmpdir(), 'huafang-storage-'));
      return { storage: new LocalDiskStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3Storage on s3rver',
    async open() {
      const server = await startS3Server();
      return { storage: new S3Storage(server.storageConfig), close: server.close };
    },
  },
];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readText(storage: Storage, key: string): Promise<string | null> {
  const stream = await storage.read(key);
  return stream && (await readBytes(stream)).toString('utf8');
}

describe.each(kinds)('storage contract: $name', ({ open }) => {
  let opened: Opened;
  let storage: Storage;
  beforeAll(async () => {
    opened = await open();
    storage = opened.storage;
  });
  afterAll(() => opened.close());

  it('reads back what was put, and a key never written as null', async () => {
    await storage.put('uploads/a.webp', Buffer.from('first'));
    expect(await readText(storage, 'uploads/a.webp')).toBe('first');
    expect(await storage.read('uploads/never-written.webp')).toBeNull();
  });

  it('overwrites a key with the newer bytes', async () => {
    await storage.put('works/b.png', Buffer.from('old bytes, longer than the new ones'));
    await storage.put('works/b.png', Buffer.from('new'));
    expect(await readText(storage, 'works/b.png')).toBe('new');
  });

  it('removes a key; removing a missing key is no error', async () => {
    await storage.put('works/c.png', Buffer.from('gone soon'));
    await storage.remove('works/c.png');
    expect(await storage.read('works/c.png')).toBeNull();
    await expect(storage.remove('works/c.png')).resolves.toBeUndefined();
  });

  it('keeps keys in sub-folders apart from keys of the same name elsewhere', async () => {
    await storage.put('works/2026/11/d.png', Buffer.from('deep'));
    await storage.put('works/d.png', Buffer.from('shallow'));
    expect(await readText(storage, 'works/2026/11/d.png')).toBe('deep');
    expect(await readText(storage, 'works/d.png')).toBe('shallow');
    await storage.remove('works/d.png');
    expect(await readText(storage, 'works/2026/11/d.png')).toBe('deep');
  });

  it('streams a 5 MB object back byte for byte, in chunks rather than one buffer', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    await storage.put('works/big.png', big);
    const stream = await storage.read('works/big.png');
    expect(stream).toBeInstanceOf(Readable);
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    const back = Buffer.concat(chunks);
    expect(back.length).toBe(big.length);
    expect(sha256(back)).toBe(sha256(big));
  });

  it('finishes a read already started when the key is removed meanwhile', async () => {
    const bytes = randomBytes(1024 * 1024);
    await storage.put('works/e.png', bytes);
    const stream = await storage.read('works/e.png');
    await storage.remove('works/e.png');
    expect(sha256(await readBytes(stream!))).toBe(sha256(bytes));
  });
});

describe('LocalDiskStorage shared by several processes', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'huafang-shared-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lets two writers put the same key at once: one whole file wins, no temporary file is left', async () => {
    // Two instances on one root stand for two processes on one DATA_DIR.
    const [first, second] = [new LocalDiskStorage(root), new LocalDiskStorage(root)];
    const a = Buffer.alloc(2 * 1024 * 1024, 'a');
    const b = Buffer.alloc(2 * 1024 * 1024, 'b');
    await Promise.all([first.put('works/same.png', a), second.put('works/same.png', b)]);
    const back = await readBytes((await first.read('works/same.png'))!);
    expect([sha256(a), sha256(b)]).toContain(sha256(back));
    expect(await readdir(path.join(root, 'works'))).toEqual(['same.png']);
  });
});
