import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * Each request's logger is a child of the server's (or a plugin's) logger bound to the request id. Fastify's own
 * factory passes pino an options object on every request, which sends pino down its slow path (formatters built
 * anew), and for a route with a level of its own (the progress poll logs warnings only) has it rebuild every log
 * method too. Here the child with that level is made once per parent and level, and each request's logger is a
 * plain child of it: pino's fast path, the same bindings and levels.
 */
export function registerRequestLoggers(app: FastifyInstance): void {
  const byLevel = new WeakMap<FastifyBaseLogger, Map<string, FastifyBaseLogger>>();
  const atLevel = (parent: FastifyBaseLogger, level: string | undefined) => {
    if (!level || level === parent.level) return parent;
    const made = byLevel.get(parent)?.get(level);
    if (made) return made;
    const child = parent.child({}, { level });
    const children = byLevel.get(parent) ?? new Map<string, FastifyBaseLogger>();
    byLevel.set(parent, children.set(level, child));
    return child;
  };
  app.setChildLoggerFactory((parent, bindings, options) =>
    options.serializers ? parent.child(bindings, options) : atLevel(parent, options.level).child(bindings),
  );
}
