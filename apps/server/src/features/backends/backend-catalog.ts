import type { InferenceEngine } from '../../engines/engine.js';
import { catalogOf } from './backend-health.js';
import type { BackendPool } from './backend-pool.js';
import type { BackendCatalog } from './backend-roster.js';

/** Values of several lists once each, in first-seen order. */
function union<T>(lists: T[][], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of lists.flat()) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** The options the backends offer to forms (samplers, ControlNet modules and models) and preprocessor previews. */
export class BackendOptions {
  constructor(private readonly pool: BackendPool) {}

  private async builtinCatalog(): Promise<BackendCatalog> {
    const builtin = this.pool.builtin;
    builtin.catalog ??= await catalogOf(builtin.engine);
    return builtin.catalog;
  }

  /**
   * The form's option lists: the built-in engine's plus those of every enabled backend, so a template can offer
   * what the GPU servers have. Read from memory; health checks refresh them.
   */
  async options(): Promise<BackendCatalog> {
    await this.builtinCatalog();
    const catalogs = this.pool.all().flatMap((b) => (b.enabled && b.catalog ? [b.catalog] : []));
    return {
      samplers: union(
        catalogs.map((c) => c.samplers),
        (name) => name,
      ),
      controlNetModules: union(
        catalogs.map((c) => c.controlNetModules),
        (option) => String(option.value),
      ),
      controlNetModels: union(
        catalogs.map((c) => c.controlNetModels),
        (name) => name,
      ),
    };
  }

  /**
   * The engine that previews a ControlNet preprocessor: the built-in engine when it has the module, else a
   * healthy enabled backend that lists it (previews are short and do not wait for the backend to be free).
   */
  async preprocessorEngine(module: string): Promise<InferenceEngine | null> {
    const offers = (catalog: BackendCatalog | null) =>
      catalog?.controlNetModules.some((option) => String(option.value) === module) ?? false;
    if (offers(await this.builtinCatalog())) return this.pool.builtin.engine;
    for (const backend of this.pool.all()) {
      if (backend.enabled && backend.healthy && offers(backend.catalog)) return backend.engine;
    }
    return null;
  }
}
