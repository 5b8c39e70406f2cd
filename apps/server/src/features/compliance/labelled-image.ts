import type { ComplianceSettings } from '@huafang/contracts';
import sharp from 'sharp';
import { isPictureChunk, pngParts } from '../../engines/png-text.js';
import { aigcChunks, aigcMetadata, isAigcChunk, producedLabel, readAigcLabel, readXmpLabel } from './aigc-label.js';
import { markLayer, withVisibleMark } from './visible-mark.js';

/** Quality of the WebP copies served (the stored thumbnails are encoded at the same). */
export const WEBP_QUALITY = 82;

/**
 * A work's original as it leaves the service (download, zip, public gallery, shared link); the stored file stays
 * as painted. The implicit label is completed with the propagation elements (the service hands the copy out), or
 * written whole for a work painted before labels existed; the visible mark is drawn when the admin keeps it on.
 * `withoutText` drops every other text chunk first (the author hid the prompt): the label itself always stays.
 */
export async function labelledImage(
  png: Buffer,
  options: { workId: string; withoutText: boolean; settings: ComplianceSettings },
): Promise<Buffer> {
  const labelled = Buffer.concat(implicitlyLabelledParts(png, options));
  const { settings } = options;
  return settings.markEnabled ? withVisibleMark(labelled, settings.markText, settings.markPosition) : labelled;
}

/**
 * labelledImage without the visible mark (the caller has painted it, see work-files.ts), as the pieces of the file:
 * slices of `png` and the two label chunks, nothing copied. `without` names one more chunk type left out.
 */
export function implicitlyLabelledParts(
  png: Buffer,
  {
    workId,
    withoutText,
    settings,
    without,
  }: { workId: string; withoutText: boolean; settings: ComplianceSettings; without?: string },
): Buffer[] {
  const label = {
    ...(readAigcLabel(png) ?? producedLabel(settings.producer, workId)),
    ContentPropagator: settings.propagator || settings.producer,
    PropagateID: workId,
  };
  return pngParts(png, aigcChunks(label), (type, data) =>
    type === without ? false : withoutText ? isPictureChunk(type) : !isAigcChunk(type, data),
  );
}

/**
 * A smaller picture of generated content as it leaves the service, always as WebP: a work's thumbnail or a live
 * preview of a generation. It carries what an original carries: the visible mark when the admin keeps it on, and
 * the implicit label (XMP and EXIF UserComment), the one the file already holds (a thumbnail stores its
 * original's) or one written for `produceId`, completed with the propagation elements. Any other metadata goes.
 */
export async function labelledWebp(
  image: Buffer,
  { produceId, settings }: { produceId: string; settings: ComplianceSettings },
): Promise<Buffer> {
  const { width, height, hasAlpha, xmp } = await sharp(image).metadata();
  const label = {
    ...((xmp && readXmpLabel(xmp.toString('utf8'))) || producedLabel(settings.producer, produceId)),
    ContentPropagator: settings.propagator || settings.producer,
    PropagateID: produceId,
  };
  const { xmp: packet, exif } = aigcMetadata(label);
  let picture = sharp(image);
  if (settings.markEnabled) {
    picture = picture.composite([markLayer(settings.markText, settings.markPosition, width, height)]);
    // Compositing adds an alpha channel; an opaque picture stays opaque.
    if (!hasAlpha) picture = picture.removeAlpha();
  }
  return picture.withExif(exif).withXmp(packet).webp({ quality: WEBP_QUALITY }).toBuffer();
}
