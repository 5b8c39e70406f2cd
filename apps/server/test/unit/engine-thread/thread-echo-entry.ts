import { serveEngineThread } from '../../../src/engines/engine-thread.js';
import { ThreadEchoEngine } from './thread-echo-engine.js';

serveEngineThread(new ThreadEchoEngine());
