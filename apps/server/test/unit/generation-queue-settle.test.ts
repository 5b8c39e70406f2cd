import type { FastifyBaseLogger } from 'fastify';
import { expect, it, vi } from 'vitest';
import { EngineError } from '../../src/engines/engine.js';
import type { Backend, BackendRegistry } from '../../src/features/backends/backend-registry.js';
import { GenerationQueue, type QueueItem } from '../../src/features/generate/generation-queue.js';
import type { JobRunner } from '../../src/features/generate/job-runner.js';
import type { ProgressBoard } from '../../src/features/generate/progress-board.js';

const backend = { id: 'b1', name: '内置演示引擎' } as Backend;

function item(jobId: string): QueueItem {
  return {
    jobId,
    generateId: `g-${jobId}`,
    userId: 'u1',
    engineKind: 'builtin',
    checkpoint: 'demo',
    units: 1,
    attempts: 0,
    tried: new Set(),
  };
}

it('keeps the process and the queue going when settling a job its backend failed fails (the database gone)', async () => {
  const ran: string[] = [];
  const runner = {
    run: async (job: QueueItem) => {
      ran.push(job.jobId);
      if (job.jobId === 'first') throw new EngineError('推理后端无法连接', true);
      return 'succeeded';
    },
    fail: async () => {
      throw new Error('Connection terminated unexpectedly');
    },
    close: async () => {},
  } as unknown as JobRunner;
  let free = true;
  const registry = {
    pickFree: () => (free ? backend : null),
    occupy: () => {
      free = false;
    },
    release: () => {
      free = true;
      registry.onAvailable();
    },
    capacity: () => 1,
    markDown: () => {},
    onAvailable: () => {},
  } as unknown as BackendRegistry;
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
  const queue = new GenerationQueue({
    registry,
    runner,
    board: {} as ProgressBoard,
    limits: { maxRunningPerUser: 1, maxQueuedPerUser: 5, maxAttempts: 1 },
    log,
    shutdownGraceMs: 0,
  });

  queue.add(item('first'));
  queue.add(item('second'));
  await vi.waitFor(() => expect(ran).toEqual(['first', 'second']));
  await queue.close();

  expect(log.error).toHaveBeenCalledWith(
    expect.objectContaining({ jobId: 'first' }),
    'settling a generation job failed',
  );
});
