import { WORK_THUMB_SIZES } from '@huafang/contracts';

interface Picture {
  thumbUrl: string;
  width: number;
  height: number;
}

/** The address of a work's thumbnail of `size` (longest side): the server makes and keeps the sizes it lacks. */
export function thumbOfSize(thumbUrl: string, size: number): string {
  return `${thumbUrl}${thumbUrl.includes('?') ? '&' : '?'}w=${size}`;
}

/**
 * A work's thumbnails as an `srcset` with their real widths (the longest side is the size, and none is enlarged past
 * the original), so the browser picks the smallest that fills the slot at the screen's density.
 */
export function thumbSrcSet(work: Picture): string {
  const longest = Math.max(work.width, work.height);
  const candidates = new Map<number, string>();
  for (const size of WORK_THUMB_SIZES) {
    const width = Math.round(work.width * Math.min(1, size / longest));
    if (!candidates.has(width)) candidates.set(width, thumbOfSize(work.thumbUrl, size));
  }
  return [...candidates].map(([width, url]) => `${url} ${width}w`).join(', ');
}

/** A masonry card's slot: half the phone's width (two columns), a column of about 300 px on wider screens. */
export const CARD_SIZES = '(max-width: 767px) 50vw, 300px';

/** A work's picture at full slot width: its thumbnails, then the original for wider slots and denser screens. */
export function originalSrcSet(work: Picture & { url: string }): string {
  return `${thumbSrcSet(work)}, ${work.url} ${work.width}w`;
}
