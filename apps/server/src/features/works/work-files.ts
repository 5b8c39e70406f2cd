import type { GeneratedImage } from '@huafang/contracts';
import sharp from 'sharp';
import { withoutPngText } from '../../engines/png-text.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';

/** Longest side of a work's thumbnail: galleries and the results grid show these, never the original. */
const THUMB_SIZE = 384;

export const workImageUrl = (workId: string) => `/api/works/image/${workId}`;
export const workThumbUrl = (workId: string) => `/api/works/thumb/${workId}`;

export type StoredWorkFiles = { imageKey: string; thumbKey: string };

export const workFileKeys = (workId: string): StoredWorkFiles => ({
  imageKey: `works/${workId}.png`,
  thumbKey: `works/${workId}.thumb.webp`,
});

/** Keeps a result: the original PNG as painted (with its parameters text) and a WebP thumbnail. */
export async function storeWorkFiles(storage: Storage, workId: string, png: Buffer): Promise<StoredWorkFiles> {
  const { imageKey, thumbKey } = workFileKeys(workId);
  const thumb = await sharp(png)
    .resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer();
  await storage.put(imageKey, png);
  await storage.put(thumbKey, thumb);
  return { imageKey, thumbKey };
}

/**
 * A work's original as a viewer gets it: as painted, or, when the author hid the prompt and the viewer came
 * through the public link, without the text chunks that would tell it (the owner's signed link keeps them).
 */
export async function readWorkImage(storage: Storage, imageKey: string, withoutText: boolean) {
  const stream = await storage.read(imageKey);
  if (!stream || !withoutText) return stream;
  return withoutPngText(await readBytes(stream));
}

/** A result as the draw page shows it, with signed links (a new work is private). */
export function generatedImage(
  work: { id: string; width: number; height: number; seed: number | string },
  signer: UrlSigner,
): GeneratedImage {
  return {
    workId: work.id,
    url: signer.sign(workImageUrl(work.id)),
    thumbUrl: signer.sign(workThumbUrl(work.id)),
    width: work.width,
    height: work.height,
    seed: Number(work.seed),
  };
}
