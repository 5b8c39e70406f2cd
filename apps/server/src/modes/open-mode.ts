import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { LocalBroadcast } from '../platform/broadcast/broadcast.js';
import { embeddedParts } from './embedded.js';
import type { OpenedMode, ProcessRole } from './mode-parts.js';
import { openScaleOut } from './scale-out.js';

/** The one place a mode is chosen: embedded for the one process, scale-out (Redis) for API processes and workers. */
export async function openMode(config: Config, role: ProcessRole, log: FastifyBaseLogger): Promise<OpenedMode> {
  if (role !== 'embedded') return openScaleOut(config, role, log);
  return {
    parts: embeddedParts(),
    bus: new LocalBroadcast(log),
    shared: null,
    close: async () => {},
    abandon: async () => {},
  };
}
