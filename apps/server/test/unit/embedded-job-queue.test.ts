import type { FastifyBaseLogger } from 'fastify';
import { expect, expectTypeOf, it, vi } from 'vitest';
import type { Backend, BackendPool } from '../../src/features/backends/backend-pool.js';
import type { BullJobQueue } from '../../src/features/generate/bullmq-job-queue.js';
import { EmbeddedJobQueue } from '../../src/features/generate/embedded-job-queue.js';
import type { GenerationRepository } from '../../src/features/generate/generation.repository.js';
import { LocalInterruptChannel } from '../../src/features/generate/interrupt-channel.js';
import type { JobLifecycle } from '../../src/features/generate/job-lifecycle.js';
import type { QueueItem } from '../../src/features/generate/job-queue.js';

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

function queueWith(handler: (job: QueueItem) => Promise<'succeeded'>) {
  let free = true;
  let available = () => {};
  const pool = {
    occupyFree: () => {
      if (!free) return null;
      free = false;
      return backend;
    },
    release: async () => {
      free = true;
      available();
    },
    capacity: () => 1,
    onAvailable: (listener: () => void) => {
      available = listener;
      return () => {};
    },
  } as unknown as BackendPool;
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
  const queue = new EmbeddedJobQueue({
    pool,
    lifecycle: { run: (job: QueueItem) => handler(job), close: () => {} } as unknown as JobLifecycle,
    interrupts: new LocalInterruptChannel(),
    repo: { unfinishedJobs: async () => [] } as unknown as GenerationRepository,
    limits: { maxRunningPerUser: 1, maxQueuedPerUser: 5, maxAttempts: 1 },
    log,
    shutdownGraceMs: 0,
  });
  return { queue, log };
}

it('keeps the process and the queue going when a job cannot be settled (the database gone)', async () => {
  const ran: string[] = [];
  const { queue, log } = queueWith(async (job) => {
    ran.push(job.jobId);
    if (job.jobId === 'first') throw new Error('Connection terminated unexpectedly');
    return 'succeeded';
  });
  await queue.start();
  await queue.add(item('first'));
  await queue.add(item('second'));
  await vi.waitFor(() => expect(ran).toEqual(['first', 'second']));
  await queue.close();

  expect(log.error).toHaveBeenCalledWith(
    expect.objectContaining({ jobId: 'first' }),
    'settling a generation job failed',
  );
});

it('cannot be built without the lifecycle that runs and settles its jobs (no handler left to register)', () => {
  expectTypeOf<ConstructorParameters<typeof EmbeddedJobQueue>[0]>()
    .toHaveProperty('lifecycle')
    .toEqualTypeOf<JobLifecycle>();
  expectTypeOf<ConstructorParameters<typeof BullJobQueue>[0]>()
    .toHaveProperty('lifecycle')
    .toEqualTypeOf<JobLifecycle>();
});
