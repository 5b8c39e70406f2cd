import { EmbeddedJobQueue } from '../features/generate/embedded-job-queue.js';
import { LocalInterruptChannel } from '../features/generate/interrupt-channel.js';
import { MemoryProgressStore } from '../features/generate/progress-store.js';
import type { ModeParts } from './mode-parts.js';

/** Embedded mode: one process holds the line, the progress and the interrupts in its memory. */
export function embeddedParts(): ModeParts {
  return {
    role: 'embedded',
    leases: null,
    board: new MemoryProgressStore(),
    interrupts: new LocalInterruptChannel(),
    queue: (deps) => new EmbeddedJobQueue(deps),
    health: () => null,
    claimTick: async () => true,
  };
}
