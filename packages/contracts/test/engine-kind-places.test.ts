import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENGINE_KIND_IDS, type EngineKind } from '../src/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
/** The code a kind could be named in. Tests, benches, the e2e suite and docs name kinds freely and are left out. */
const SOURCES = [
  'apps/server/src',
  'apps/server/scripts',
  'apps/server/examples',
  'packages/contracts/src',
  'apps/web/src',
  'apps/web/build',
];
const ENGINES = 'apps/server/src/engines';
const REGISTRATION = 'packages/contracts/src/engine-kinds.ts';
/**
 * `builtin` also names the built-in backend's flag (`BackendItem.builtin`, `pool.builtin`) and the variables
 * holding that backend. As a kind it is a string, or a key beside other kinds' keys, so only those count.
 */
const FLAG_NAMES: ReadonlySet<string> = new Set(['builtin']);

const folderOf = (kind: string) => `${ENGINES}/${kind}/`;

function sourceFiles(): string[] {
  return SOURCES.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')),
  );
}

const KINDS: ReadonlySet<string> = new Set(ENGINE_KIND_IDS);

/** The member names of an object or type literal, an interface or an enum (others have none). */
function memberNames(node: ts.Node): string[] {
  const members = ts.isObjectLiteralExpression(node)
    ? node.properties
    : ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node)
      ? node.members
      : [];
  return members.flatMap((member) =>
    member.name && !ts.isComputedPropertyName(member.name) ? [member.name.text] : [],
  );
}

type Words = { identifiers: Set<string>; strings: Set<string>; kindKeys: Set<string> };

/**
 * The names and strings a file holds (identifiers, string literals, JSX text), comments left out, and the keys of
 * its per-kind maps (objects or types keyed by two kinds or more).
 */
function wordsOf(file: string): Words {
  const text = readFileSync(path.join(root, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const identifiers = new Set<string>();
  const strings = new Set<string>();
  const kindKeys = new Set<string>();
  const visit = (node: ts.Node) => {
    const keys = memberNames(node).filter((name) => KINDS.has(name));
    if (keys.length >= 2) for (const key of keys) kindKeys.add(key);
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) identifiers.add(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.add(node.text);
    else if (ts.isJsxText(node)) for (const word of node.text.split(/\s+/)) strings.add(word);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { identifiers, strings, kindKeys };
}

const files = sourceFiles().map((file) => ({ file, ...wordsOf(file) }));

/** Where a kind is named: its engine folder counts once, as the folder; any other file by its path. */
function placesOf(kind: EngineKind): string[] {
  const places = new Set<string>();
  for (const { file, identifiers, strings, kindKeys } of files) {
    const named = strings.has(kind) || kindKeys.has(kind) || (!FLAG_NAMES.has(kind) && identifiers.has(kind));
    if (named) places.add(file.startsWith(folderOf(kind)) ? folderOf(kind) : file);
  }
  return [...places].sort();
}

describe('engine kinds: adding one is its folder plus its registration', () => {
  it.each(ENGINE_KIND_IDS)('%s is named only in its engine folder and in ENGINE_KINDS', (kind) => {
    expect(placesOf(kind)).toEqual([folderOf(kind), REGISTRATION].sort());
  });

  it('every kind has a folder whose index.ts makes its engine, and every engine folder is a kind', () => {
    for (const kind of ENGINE_KIND_IDS)
      expect(existsSync(path.join(root, folderOf(kind), 'index.ts')), kind).toBe(true);
    const folders = readdirSync(path.join(root, ENGINES), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...ENGINE_KIND_IDS].sort());
  });

  it('finds a kind wherever code names it (the scan itself)', () => {
    const registry = wordsOf('apps/server/src/engines/engine-registry.ts');
    expect(registry.identifiers.has('engineKind')).toBe(true);
    expect(registry.strings.has('@huafang/contracts')).toBe(true);
    expect([...wordsOf(REGISTRATION).kindKeys].sort()).toEqual([...ENGINE_KIND_IDS].sort());
  });
});
