import { describe, expect, it } from 'vitest';
import { ChunkLoadError, isChunkLoadError, loadChunk } from './lazy-chunk';

describe('loadChunk', () => {
  it('resolves the module when it loads', async () => {
    await expect(loadChunk('home', async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('names the chunk when the import fails', async () => {
    const failing = loadChunk('draw', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    await expect(failing).rejects.toThrow('Loading chunk draw failed');
    await failing.catch((error: unknown) => {
      expect(isChunkLoadError(error)).toBe(true);
      expect((error as ChunkLoadError).chunk).toBe('draw');
    });
  });

  it('gives up after the timeout', async () => {
    const stalled = loadChunk('omnibus', () => new Promise<never>(() => {}), 10);
    await expect(stalled).rejects.toBeInstanceOf(ChunkLoadError);
  });
});
