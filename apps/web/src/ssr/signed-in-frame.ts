import { createContext, useContext } from 'react';

/**
 * True while the server renders the frame of a signed-in page (`/draw`, ssr/entry-server.tsx): who the reader is
 * lives in the browser's storage, so the frame is drawn as any signed-in reader's page with nothing of theirs in it,
 * and the browser renders the real page over it.
 */
export const SignedInFrameContext = createContext(false);

export const useSignedInFrame = () => useContext(SignedInFrameContext);

/** The attribute on #root of a page that holds a frame (hidden by the page's style unless its guard says it fits). */
export const FRAME_ATTRIBUTE = 'data-hf-frame';

/**
 * Put on <html> by public/draw-frame.js before the frame is painted when the frame is this reader's page: signed in,
 * no template or generation stored, a window of the width the frame was laid out for.
 */
export const FRAME_FITS_CLASS = 'hf-frame-fits';

/**
 * Takes a server frame's mark off #root before the app renders there, and the frame itself where its guard did not
 * show it. Whether a frame is on screen: it stays until the page can replace it whole (main.tsx).
 */
export function takeFrame(root: HTMLElement): boolean {
  if (!root.hasAttribute(FRAME_ATTRIBUTE)) return false;
  const shown = document.documentElement.classList.contains(FRAME_FITS_CLASS);
  if (!shown) root.replaceChildren();
  root.removeAttribute(FRAME_ATTRIBUTE);
  return shown;
}
