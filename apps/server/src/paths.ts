import path from 'node:path';

/**
 * The repository's root, found from this module: it sits directly in apps/server/src, and the build bundles it into
 * a file directly in apps/server/dist (see scripts/build.ts), the same depth, so one path serves sources and build.
 */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
