import type { CreateEngine } from '../engine.js';
import { engineThreadEntry, ThreadedEngine } from '../threaded-engine.js';
import { BuiltinEngine } from './builtin-engine.js';

/** Paints in a worker thread; the build puts the thread's entry beside this module as the source has it. */
export const create: CreateEngine = () =>
  new ThreadedEngine(new BuiltinEngine(), engineThreadEntry(import.meta.url, './builtin-thread'));
