import { DEFAULT_WORK_THUMB_SIZE, type GeneratedImage, WORK_THUMB_SIZES } from '@huafang/contracts';
import sharp from 'sharp';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { aigcMetadata, readAigcLabel } from '../compliance/aigc-label.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import { WEBP_QUALITY } from '../compliance/labelled-image.js';

/** Longest side of a work's stored thumbnail: galleries and the results grid show these, never the original. */
const THUMB_SIZE = DEFAULT_WORK_THUMB_SIZE;

export const workImageUrl = (workId: string) => `/api/works/image/${workId}`;
export const workThumbUrl = (workId: string) => `/api/works/thumb/${workId}`;

/**
 * The state a work's signed link is bound to: a link signed while the work was shown stops at once when an admin
 * hides it; the owner's and admins' lists then hand out links signed for the hidden work.
 */
export const workLinkScope = (work: { hidden?: number }) => (work.hidden === 1 ? 'hidden' : undefined);

/** A signed link of a work's original or thumbnail (`path`), bound to the work's state. */
export const signedWorkLink = (signer: UrlSigner, path: string, work: { hidden?: number }) =>
  signer.sign(path, workLinkScope(work));

export type StoredWorkFiles = { imageKey: string; thumbKey: string };

export const workFileKeys = (workId: string): StoredWorkFiles => ({
  imageKey: `works/${workId}.png`,
  thumbKey: `works/${workId}.thumb.webp`,
});

/** Where a thumbnail of another size than the stored one is kept once made (see readWorkThumbOfSize). */
const sizedThumbKey = (thumbKey: string, size: number) => thumbKey.replace(/\.thumb\.webp$/, `.thumb-${size}.webp`);

/** Every thumbnail of other sizes a work may have, for deleting it with the work. */
export const sizedThumbKeys = (thumbKey: string) =>
  WORK_THUMB_SIZES.filter((size) => size !== THUMB_SIZE).map((size) => sizedThumbKey(thumbKey, size));

/** A thumbnail of `size` (longest side) from the original PNG, carrying its AIGC label like the stored one. */
async function thumbnailOf(png: Buffer, size: number): Promise<Buffer> {
  const label = readAigcLabel(png);
  let thumbnail = sharp(png).resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true });
  if (label) {
    const { xmp, exif } = aigcMetadata(label);
    thumbnail = thumbnail.withExif(exif).withXmp(xmp);
  }
  return thumbnail.webp({ quality: WEBP_QUALITY }).toBuffer();
}

/**
 * Keeps a result: the original PNG as painted (with its parameters text) and a WebP thumbnail, which carries the
 * original's AIGC label (and nothing else of its metadata), so the thumbnail served later names the same producer.
 */
export async function storeWorkFiles(storage: Storage, workId: string, png: Buffer): Promise<StoredWorkFiles> {
  const { imageKey, thumbKey } = workFileKeys(workId);
  const thumb = await thumbnailOf(png, THUMB_SIZE);
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
 * A work's thumbnail of `size` as it leaves the service. Sizes other than the stored one are made from the original
 * the first time they are asked for and kept beside it, so works stored before there were sizes get them too,
 * without a migration. Null when the files are gone.
 */
export async function readWorkThumbOfSize(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; thumb_key: string; image_key: string },
  size: number,
): Promise<Buffer | null> {
  if (size === THUMB_SIZE) return readWorkThumb(storage, compliance, work);
  const key = sizedThumbKey(work.thumb_key, size);
  const kept = await storage.read(key);
  if (kept) return compliance.labelledWebp(await readBytes(kept), work.id);
  const original = await storage.read(work.image_key);
  if (!original) return null;
  const thumb = await thumbnailOf(await readBytes(original), size);
  await storage.put(key, thumb);
  return compliance.labelledWebp(thumb, work.id);
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
  work: { id: string; width: number; height: number; seed: number | string; hidden?: number },
  signer: UrlSigner,
): GeneratedImage {
  return {
    workId: work.id,
    url: signedWorkLink(signer, workImageUrl(work.id), work),
    thumbUrl: signedWorkLink(signer, workThumbUrl(work.id), work),
    width: work.width,
    height: work.height,
    seed: Number(work.seed),
  };
}
