import type { GeneratedImage } from '@huafang/contracts';
import sharp from 'sharp';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { aigcMetadata, readAigcLabel } from '../compliance/aigc-label.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import { WEBP_QUALITY } from '../compliance/labelled-image.js';

/** Longest side of a work's thumbnail: galleries and the results grid show these, never the original. */
const THUMB_SIZE = 384;

export const workImageUrl = (workId: string) => `/api/works/image/${workId}`;
export const workThumbUrl = (workId: string) => `/api/works/thumb/${workId}`;

export type StoredWorkFiles = { imageKey: string; thumbKey: string };

export const workFileKeys = (workId: string): StoredWorkFiles => ({
  imageKey: `works/${workId}.png`,
  thumbKey: `works/${workId}.thumb.webp`,
});

/**
 * Keeps a result: the original PNG as painted (with its parameters text) and a WebP thumbnail, which carries the
 * original's AIGC label (and nothing else of its metadata), so the thumbnail served later names the same producer.
 */
export async function storeWorkFiles(storage: Storage, workId: string, png: Buffer): Promise<StoredWorkFiles> {
  const { imageKey, thumbKey } = workFileKeys(workId);
  const label = readAigcLabel(png);
  let thumbnail = sharp(png).resize({ width: THUMB_SIZE, height: THUMB_SIZE, fit: 'inside', withoutEnlargement: true });
  if (label) {
    const { xmp, exif } = aigcMetadata(label);
    thumbnail = thumbnail.withExif(exif).withXmp(xmp);
  }
  const thumb = await thumbnail.webp({ quality: WEBP_QUALITY }).toBuffer();
  await storage.put(imageKey, png);
  await storage.put(thumbKey, thumb);
  return { imageKey, thumbKey };
}

/** A work's thumbnail as it leaves the service, labelled and marked like the original; null when the file is gone. */
export async function readWorkThumb(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; thumb_key: string },
): Promise<Buffer | null> {
  const stream = await storage.read(work.thumb_key);
  return stream && compliance.labelledWebp(await readBytes(stream), work.id);
}

/**
 * A work's original as it leaves the service, with its AIGC labels (see ComplianceService.labelled); null when the
 * file is gone. `withoutText` when the author hid the prompt and the viewer came through the public link: no text
 * chunk tells the prompt (the owner's signed link keeps them).
 */
export async function readWorkImage(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; image_key: string },
  withoutText: boolean,
): Promise<Buffer | null> {
  const stream = await storage.read(work.image_key);
  return stream && compliance.labelled(await readBytes(stream), { workId: work.id, withoutText });
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
