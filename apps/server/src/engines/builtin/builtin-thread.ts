import { serveEngineThread } from '../engine-thread.js';
import { BuiltinEngine } from './builtin-engine.js';

// The built-in engine's thread entry: ThreadedEngine starts it so painting stays off the main thread.
serveEngineThread(new BuiltinEngine());
