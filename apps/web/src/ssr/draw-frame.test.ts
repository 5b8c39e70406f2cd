import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORAGE_KEYS } from '@huafang/contracts';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { DRAW_STORAGE_KEY } from '../stores/draw-storage';
import { theme as appTheme } from '../theme';
import { STALE_FRAME_CLASS } from './signed-in-frame';

/** The guard of the server's /draw frame, as the browser runs it before the frame is painted. */
const GUARD = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../public/draw-frame.js'),
  'utf8',
);

interface Visit {
  stored: Record<string, string>;
  /** The classes the server put on <html>: hf-narrow when it laid the frame out for a phone. */
  laidOutNarrow: boolean;
  windowWidth: number;
}

/** Runs the guard against a stand-in page; true when it hid the frame. */
function hidesFrame({ stored, laidOutNarrow, windowWidth }: Visit): boolean {
  const classes = new Set(laidOutNarrow ? ['hf-narrow'] : []);
  const documentLike = {
    documentElement: { classList: { contains: (c: string) => classes.has(c), add: (c: string) => classes.add(c) } },
  };
  const storage = { getItem: (key: string) => stored[key] ?? null };
  const windowLike = {
    matchMedia: (query: string) => {
      const max = Number(/max-width: ([\d.]+)px/.exec(query)?.[1]);
      return { matches: windowWidth <= max };
    },
  };
  new Function('document', 'localStorage', 'window', GUARD)(documentLike, storage, windowLike);
  return classes.has(STALE_FRAME_CLASS);
}

const draft = (state: Record<string, unknown>) => JSON.stringify({ state, version: 1 });
const signedIn = { [STORAGE_KEYS.authorization]: 'a-token' };

describe("the guard of /draw's server frame (public/draw-frame.js)", () => {
  it('shows the frame to a signed-in reader with no template, on the width it was laid out for', () => {
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: true, windowWidth: 390 })).toBe(false);
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: false, windowWidth: 1440 })).toBe(false);
    const empty = {
      ...signedIn,
      [DRAW_STORAGE_KEY]: draft({ templateId: null, taskTemplateDetails: null, generateId: null }),
    };
    expect(hidesFrame({ stored: empty, laidOutNarrow: true, windowWidth: 390 })).toBe(false);
  });

  it('hides it from a guest, a reader with a template or a generation, and a window it does not fit', () => {
    expect(hidesFrame({ stored: {}, laidOutNarrow: true, windowWidth: 390 })).toBe(true);
    for (const state of [{ templateId: 't1' }, { taskTemplateDetails: { id: 't1' } }, { generateId: 'g1' }]) {
      expect(
        hidesFrame({
          stored: { ...signedIn, [DRAW_STORAGE_KEY]: draft(state) },
          laidOutNarrow: true,
          windowWidth: 390,
        }),
      ).toBe(true);
    }
    expect(
      hidesFrame({ stored: { ...signedIn, [DRAW_STORAGE_KEY]: '{not json' }, laidOutNarrow: true, windowWidth: 390 }),
    ).toBe(true);
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: false, windowWidth: 390 })).toBe(true);
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: true, windowWidth: 1440 })).toBe(true);
  });

  it("narrows where the app does: just below antd's lg breakpoint", () => {
    const lg = theme.getDesignToken(appTheme).screenLG;
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: true, windowWidth: lg - 1 })).toBe(false);
    expect(hidesFrame({ stored: signedIn, laidOutNarrow: false, windowWidth: lg })).toBe(false);
  });
});
