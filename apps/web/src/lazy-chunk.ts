import { CHUNK_LOAD_TIMEOUT_MS } from '@huafang/contracts';

/** A page's code (or its styles) could not be fetched: spec §8 "Loading chunk N failed". */
export class ChunkLoadError extends Error {
  readonly chunk: string;

  constructor(chunk: string, options?: { cause?: unknown }) {
    super(`Loading chunk ${chunk} failed`, options);
    this.name = 'ChunkLoadError';
    this.chunk = chunk;
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

/**
 * Loads one lazy chunk, turning a network failure, a failed style preload or a stall longer than
 * CHUNK_LOAD_TIMEOUT_MS into a ChunkLoadError named after the chunk.
 */
export function loadChunk<T>(chunk: string, loader: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(chunk, { cause: new Error(`timed out after ${timeoutMs} ms`) })),
      timeoutMs,
    );
    loader().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(chunk, { cause: error }));
      },
    );
  });
}
