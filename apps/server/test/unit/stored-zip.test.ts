import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { storedZip, type ZipSource } from '../../src/features/works/stored-zip.js';
import { readZip } from '../helpers/zip.js';

const mtime = new Date(Date.UTC(2026, 11, 7, 12));

async function collect(sources: ZipSource[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storedZip(sources)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('stored zip', () => {
  it('keeps the order asked while later files are read ahead and finish first', async () => {
    const reads: string[] = [];
    const sources = [30, 5, 0, 20, 1].map((delay, i) => ({
      name: `${i}.png`,
      mtime,
      parts: async () => {
        reads.push(`${i}`);
        await sleep(delay);
        return [Buffer.from(`file ${i} `), Buffer.from('x'.repeat(i * 1000))];
      },
    }));
    const entries = await readZip(await collect(sources));
    expect([...entries.keys()]).toEqual(['0.png', '1.png', '2.png', '3.png', '4.png']);
    expect(entries.get('3.png')?.toString()).toBe(`file 3 ${'x'.repeat(3000)}`);
    expect(reads).toEqual(['0', '1', '2', '3', '4']);
  });

  it('fails the stream with a file that cannot be read, and leaves no read unawaited when it stops early', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const sources = [0, 1, 2, 3].map((i) => ({
        name: `${i}.png`,
        mtime,
        parts: async () => {
          await sleep(i === 1 ? 20 : 0);
          if (i >= 1) throw new Error(`missing file ${i}`);
          return [Buffer.from('ok')];
        },
      }));
      // Files 2 and 3 fail too, read ahead while file 1 is awaited: only file 1's error is the stream's.
      await expect(collect(sources)).rejects.toThrow('missing file 1');
      await sleep(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
