import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The image installs the versions of package-lock.json on amd64 and arm64 servers alike (deploy/Dockerfile). npm
 * installs a package's per-platform binary only when the lock file lists it, so a lock file written on x64 that
 * lost the arm64 entries builds an arm64 image that crashes at start (as @node-rs/jieba once did). Every package
 * with a native binary that the server loads at run time must list the linux glibc binary of both architectures,
 * at the version its package asks for.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
type LockEntry = {
  version: string;
  cpu?: string[];
  os?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Loaded by the server at run time: word segmentation, password hashing, images, and tsx's esbuild. */
const NATIVE_AT_RUN_TIME = ['@node-rs/jieba', '@node-rs/argon2', 'sharp', 'esbuild'];
const ARCHITECTURES = ['x64', 'arm64'];

/** The binaries of a package for linux on `cpu` with glibc: names like …-linux-arm64-gnu, …-linux-arm64. */
function linuxGlibcBinaries(entry: LockEntry, cpu: string): string[] {
  return Object.keys(entry.optionalDependencies ?? {}).filter((name) =>
    new RegExp(`[-/]linux-${cpu}(-gnu)?$`).test(name),
  );
}

describe('package-lock.json carries the run-time native binaries of linux x64 and arm64', () => {
  for (const name of NATIVE_AT_RUN_TIME) {
    for (const cpu of ARCHITECTURES) {
      it(`${name}: linux ${cpu} (glibc)`, () => {
        const entry = lock.packages[`node_modules/${name}`];
        expect(entry, `${name} is not in package-lock.json`).toBeDefined();
        const binaries = linuxGlibcBinaries(entry!, cpu);
        expect(binaries.length, `${name} declares no linux-${cpu} binary`).toBeGreaterThan(0);
        for (const binary of binaries) {
          const locked = lock.packages[`node_modules/${binary}`];
          expect(locked, `${binary} is missing from package-lock.json`).toBeDefined();
          expect(locked).toMatchObject({ version: entry!.optionalDependencies![binary], cpu: [cpu], os: ['linux'] });
          if (locked!.libc) expect(locked!.libc).toEqual(['glibc']);
        }
      });
    }
  }
});
