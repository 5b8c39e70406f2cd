import type { DehydratedState } from '@tanstack/react-query';

/** The id of the JSON the server puts into a page it rendered: the data the first screen was rendered with. */
export const RENDERED_STATE_ID = 'hf-rendered-state';

export interface RenderedState {
  queries: DehydratedState;
  /** The window width the server laid the page out for (common/use-screen.ts). */
  width: number;
}

/**
 * The page's rendered state, or null for the plain app shell. It is a JSON data block, not a script the browser
 * runs, so the page's CSP (script-src 'self') needs no exception for it.
 */
export function readRenderedState(): RenderedState | null {
  const text = document.getElementById(RENDERED_STATE_ID)?.textContent;
  return text ? (JSON.parse(text) as RenderedState) : null;
}

/** The state as the JSON of that block; `<` is escaped so no text in it can close the element. */
export function serializeRenderedState(state: RenderedState): string {
  return JSON.stringify(state).replace(/</g, '\\u003c');
}
