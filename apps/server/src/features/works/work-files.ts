import {
  type ComplianceSettings,
  DEFAULT_WORK_THUMB_SIZE,
  type GeneratedImage,
  WORK_THUMB_SIZES,
} from '@huafang/contracts';
import sharp from 'sharp';
import { chunkAfterIhdrIs, withChunkAfterIhdr } from '../../engines/png-text.js';
import { sha256 } from '../../platform/ids.js';
import { isDiskFull, readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { aigcMetadata, readAigcLabel } from '../compliance/aigc-label.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import { implicitlyLabelledParts, WEBP_QUALITY } from '../compliance/labelled-image.js';
import { withVisibleMark } from '../compliance/visible-mark.js';

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
 * Keeps a result: the original PNG as painted (with its parameters text) at once, and a WebP thumbnail, which
 * carries the original's AIGC label (and nothing else of its metadata), so the thumbnail served later names the
 * same producer. The thumbnail is encoded after the original is kept, off the generation's path (a twentieth of a
 * 512² generation, bench/generation.bench.ts): `thumbnail` resolves once it is kept or has failed, and a thumbnail
 * asked for before that is made from the original then (readWorkThumbOfSize).
 */
export async function storeWorkFiles(
  storage: Storage,
  workId: string,
  png: Buffer,
): Promise<StoredWorkFiles & { thumbnail: Promise<void> }> {
  const keys = workFileKeys(workId);
  await storage.put(keys.imageKey, png);
  const thumbnail = thumbnailOf(png, THUMB_SIZE)
    .then((thumb) => keepCopy(storage, keys.thumbKey, thumb))
    .catch(() => undefined);
  return { ...keys, thumbnail };
}

/**
 * Paints and keeps the marked copy downloads serve (see markedOriginal), so no first download (a zip of 100 works
 * above all) waits for painting. Only a saving: should it fail, or a download come first, the download paints it.
 */
export async function keepMarkedCopy(
  storage: Storage,
  imageKey: string,
  png: Buffer,
  settings: ComplianceSettings,
): Promise<void> {
  if (settings.markEnabled) await paintMarkedCopy(storage, imageKey, png, settings);
}

/**
 * Keeps a copy made from the original (a thumbnail size, the marked original) for the next request. Keeping it only
 * saves work: with the storage full the picture is still served, made again next time.
 */
async function keepCopy(storage: Storage, key: string, bytes: Buffer): Promise<void> {
  await storage.put(key, bytes).catch((err: unknown) => {
    if (!isDiskFull(err)) throw err;
  });
}

/** Where the marked copy of a work's original is kept, beside it. */
export const markedCopyKey = (imageKey: string) => `${imageKey.replace(/\.png$/, '')}.marked.png`;

/** A private, ancillary, safe-to-copy PNG chunk naming the mark a copy was painted with; never leaves the service. */
const MARK_CHUNK = 'hfMk';

const markFingerprint = (settings: ComplianceSettings) =>
  Buffer.from(sha256(JSON.stringify([settings.markText, settings.markPosition])).slice(0, 32), 'latin1');

/**
 * A work's thumbnail of `size` as it leaves the service, labelled and marked like the original. Sizes other than
 * the stored one are made from the original the first time they are asked for and kept beside it, so works stored
 * before there were sizes get them too, without a migration; so is the stored size when it is asked for before
 * storeWorkFiles kept it. Null when the files are gone.
 */
export async function readWorkThumbOfSize(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; thumb_key: string; image_key: string },
  size: number,
): Promise<Buffer | null> {
  const key = size === THUMB_SIZE ? work.thumb_key : sizedThumbKey(work.thumb_key, size);
  const kept = await storage.read(key);
  if (kept) return compliance.labelledWebp(await readBytes(kept), work.id);
  const original = await storage.read(work.image_key);
  if (!original) return null;
  const thumb = await thumbnailOf(await readBytes(original), size);
  await keepCopy(storage, key, thumb);
  return compliance.labelledWebp(thumb, work.id);
}

/**
 * The marked copy of a work's original as kept: the visible mark painted on, all the original's metadata chunks,
 * and first after IHDR a private chunk naming the mark (never served, see readWorkImageParts). Painting decodes
 * and re-encodes the picture, which made every download of a work (and a zip of 100) cost that again; the copy is
 * painted when the work is stored (or, for a work stored before or while the mark was off, on its first download)
 * and kept beside the original (deleted with it), and painted again only when an admin changes the mark's text or
 * corner. The stored original itself stays as painted.
 */
async function markedOriginal(
  storage: Storage,
  work: { image_key: string },
  settings: ComplianceSettings,
): Promise<Buffer | null> {
  const kept = await storage.read(markedCopyKey(work.image_key));
  const copy = kept && (await readBytes(kept));
  if (copy && chunkAfterIhdrIs(copy, MARK_CHUNK, markFingerprint(settings))) return copy;
  const stream = await storage.read(work.image_key);
  return stream && paintMarkedCopy(storage, work.image_key, await readBytes(stream), settings);
}

/** Paints the marked copy of the original `png` and keeps it beside the original (see markedOriginal). */
async function paintMarkedCopy(
  storage: Storage,
  imageKey: string,
  png: Buffer,
  settings: ComplianceSettings,
): Promise<Buffer> {
  const marked = await withVisibleMark(png, settings.markText, settings.markPosition);
  const copy = withChunkAfterIhdr(marked, MARK_CHUNK, markFingerprint(settings));
  await keepCopy(storage, markedCopyKey(imageKey), copy);
  return copy;
}

/**
 * A work's original as it leaves the service, with its AIGC labels (see labelledImage), as the pieces of the file
 * (see implicitlyLabelledParts): the zip writes them as they are; null when the file is gone. `withoutText` when the
 * author hid the prompt and the viewer came through the public link: no text chunk tells the prompt (the owner's
 * signed link keeps them). With the visible mark on, the labels go onto the kept marked copy: the same bytes as
 * marking the labelled original, since painting keeps every metadata chunk in its place.
 */
export async function readWorkImageParts(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; image_key: string },
  withoutText: boolean,
): Promise<Buffer[] | null> {
  const settings = await compliance.settings();
  if (settings.markEnabled) {
    const marked = await markedOriginal(storage, work, settings);
    return marked && implicitlyLabelledParts(marked, { workId: work.id, withoutText, settings, without: MARK_CHUNK });
  }
  const stream = await storage.read(work.image_key);
  return stream && implicitlyLabelledParts(await readBytes(stream), { workId: work.id, withoutText, settings });
}

/** readWorkImageParts as one buffer: a single download. */
export async function readWorkImage(
  storage: Storage,
  compliance: ComplianceService,
  work: { id: string; image_key: string },
  withoutText: boolean,
): Promise<Buffer | null> {
  const parts = await readWorkImageParts(storage, compliance, work, withoutText);
  return parts && Buffer.concat(parts);
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
