import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORAGE_KEYS } from '@huafang/contracts';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { DRAW_STORAGE_KEY } from '../stores/draw-storage';
import { theme as appTheme } from '../theme';
import { FRAME_FITS_CLASS } from './signed-in-frame';

/** The guard of the server's /draw frame, as the browser runs it before the frame is painted. */
const GUARD = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../public/draw-frame.js'),
  'utf8',
);
const { screenMD, screenXL } = theme.getDesignToken(appTheme);

interface Visit {
  stored: Record<string, string>;
  /** The layout the server drew the frame for (it puts hf-phone on <html> for a phone's). */
  frame: 'phone' | 'desktop';
  windowWidth: number;
}

/** Runs the guard against a stand-in page: whether it lets the frame show. */
function showsFrame({ stored, frame, windowWidth }: Visit): boolean {
  const classes = new Set(frame === 'phone' ? ['hf-phone', 'hf-narrow'] : []);
  const documentLike = {
    documentElement: { classList: { contains: (c: string) => classes.has(c), add: (c: string) => classes.add(c) } },
  };
  const storage = { getItem: (key: string) => stored[key] ?? null };
  const windowLike = {
    matchMedia: (query: string) => {
      const max = /max-width: ([\d.]+)px/.exec(query)?.[1];
      const min = /min-width: ([\d.]+)px/.exec(query)?.[1];
      return {
        matches: (max === undefined || windowWidth <= Number(max)) && (min === undefined || windowWidth >= Number(min)),
      };
    },
  };
  new Function('document', 'localStorage', 'window', GUARD)(documentLike, storage, windowLike);
  return classes.has(FRAME_FITS_CLASS);
}

const draft = (state: Record<string, unknown>) => JSON.stringify({ state, version: 1 });
const signedIn = { [STORAGE_KEYS.authorization]: 'a-token' };

describe("the guard of /draw's server frame (public/draw-frame.js)", () => {
  it('shows the frame to a signed-in reader with no template, on the width it was laid out for', () => {
    expect(showsFrame({ stored: signedIn, frame: 'phone', windowWidth: 390 })).toBe(true);
    expect(showsFrame({ stored: signedIn, frame: 'desktop', windowWidth: 1440 })).toBe(true);
    const empty = {
      ...signedIn,
      [DRAW_STORAGE_KEY]: draft({ templateId: null, taskTemplateDetails: null, generateId: null }),
    };
    expect(showsFrame({ stored: empty, frame: 'phone', windowWidth: 390 })).toBe(true);
    const bearer = { [STORAGE_KEYS.authorization]: 'Bearer a-token' };
    expect(showsFrame({ stored: bearer, frame: 'phone', windowWidth: 390 })).toBe(true);
  });

  it('keeps it hidden from a guest, a reader with a template or a generation, and where storage is unreadable', () => {
    expect(showsFrame({ stored: {}, frame: 'phone', windowWidth: 390 })).toBe(false);
    expect(showsFrame({ stored: { [STORAGE_KEYS.authorization]: 'Bearer ' }, frame: 'phone', windowWidth: 390 })).toBe(
      false,
    );
    for (const state of [{ templateId: 't1' }, { taskTemplateDetails: { id: 't1' } }, { generateId: 'g1' }]) {
      const stored = { ...signedIn, [DRAW_STORAGE_KEY]: draft(state) };
      expect(showsFrame({ stored, frame: 'phone', windowWidth: 390 })).toBe(false);
    }
    const unreadable = { ...signedIn, [DRAW_STORAGE_KEY]: '{not json' };
    expect(showsFrame({ stored: unreadable, frame: 'phone', windowWidth: 390 })).toBe(false);
  });

  it("shows a phone's frame only below md and a desktop's only from xl, where the app lays the page out alike", () => {
    expect(showsFrame({ stored: signedIn, frame: 'phone', windowWidth: screenMD - 1 })).toBe(true);
    expect(showsFrame({ stored: signedIn, frame: 'phone', windowWidth: screenMD })).toBe(false);
    expect(showsFrame({ stored: signedIn, frame: 'phone', windowWidth: 1440 })).toBe(false);
    expect(showsFrame({ stored: signedIn, frame: 'desktop', windowWidth: screenXL })).toBe(true);
    expect(showsFrame({ stored: signedIn, frame: 'desktop', windowWidth: screenXL - 1 })).toBe(false);
    expect(showsFrame({ stored: signedIn, frame: 'desktop', windowWidth: 390 })).toBe(false);
  });
});
