import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const serverDir = path.resolve(import.meta.dirname, '..');
const outdir = path.join(serverDir, 'dist');

/**
 * Only our own code is compiled: the server and the workspace packages it imports (@huafang/contracts exports its
 * TypeScript source). Every other package stays an import that node resolves from node_modules at run time, so
 * native modules (sharp, better-sqlite3, jieba) and packages reading their own files keep working as installed.
 */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('@huafang/') ? undefined : { external: true },
    );
  },
};

const result = await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: 'src/main.ts',
    worker: 'src/worker.ts',
    migrate: 'src/migrate.ts',
    // Beside the chunks as the source is beside engines/builtin/index.ts, whose import.meta.url finds it.
    'builtin-thread': 'src/engines/builtin/builtin-thread.ts',
  },
  outdir,
  // Shared code goes to chunks at the top of dist/, one level below apps/server like src/, so paths computed from
  // import.meta (web/dist, ps-plugin) are the same from sources and from the build.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  keepNames: true,
  plugins: [npmPackagesExternal],
  logLevel: 'warning',
  metafile: true,
});

// Written over in place, not emptied first: processes started from this folder (`npm run worker` builds before it
// starts) keep finding their files while another one builds; the build is deterministic, so they stay the same.
// Only what this build no longer makes is removed.
const made = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(serverDir, file)));
for (const entry of await readdir(outdir, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (entry.isFile() && !made.has(file)) await rm(file);
}
