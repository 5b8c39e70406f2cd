import { createContext, useContext } from 'react';

/**
 * True while the server renders the frame of a signed-in page (`/draw`, ssr/entry-server.tsx): who the reader is
 * lives in the browser's storage, so the frame is drawn as any signed-in reader's page with nothing of theirs in it,
 * and the browser renders the real page over it.
 */
export const SignedInFrameContext = createContext(false);

export const useSignedInFrame = () => useContext(SignedInFrameContext);

/**
 * Put on <html> by public/draw-frame.js before the frame is painted when it would not be what this reader sees
 * (a guest, a chosen template, a generation under way): the frame stays hidden and main.tsx clears it.
 */
export const STALE_FRAME_CLASS = 'hf-frame-stale';
