import type { MarkPosition } from '@huafang/contracts';
import sharp from 'sharp';
import { withMetadataOf } from '../../engines/png-text.js';
import { escapeXml } from './aigc-label.js';

/**
 * GB 45438-2025 wants the text of an image's explicit label at least 5% of the picture's shortest side tall. The
 * font size is 1/16 (6.25%) of it: the ink of capitals and CJK glyphs fills at least 80% of the font size in common
 * fonts, so the glyphs stay above 5% whichever font fontconfig picks.
 */
const FONT_SHARE = 1 / 16;
/** Below this the text cannot be read at all, whatever the rule asks of a tiny picture. */
const MIN_FONT_PX = 12;
/** CJK families first; librsvg asks fontconfig, which falls back to any font with the glyphs. */
const FONT_FAMILY = "'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Zen Hei', 'Microsoft YaHei', sans-serif";

function markFontSize(width: number, height: number): number {
  return Math.max(MIN_FONT_PX, Math.ceil(Math.min(width, height) * FONT_SHARE));
}

/** Width of the text, generous: ideographs take a full em, other characters less. */
const textWidth = (text: string, size: number) =>
  [...text].reduce((sum, ch) => sum + ((ch.codePointAt(0) ?? 0) >= 0x2e80 ? 1 : 0.7) * size, 0);

/** The mark as an SVG box the size of the corner it covers, and where that box goes on the picture. */
export function markLayer(text: string, position: MarkPosition, width: number, height: number) {
  const size = markFontSize(width, height);
  const margin = Math.round(size * 0.4);
  const stroke = Math.max(1, Math.round(size / 10));
  const boxWidth = Math.min(width, Math.ceil(textWidth(text, size) + 2 * margin + 2 * stroke));
  const boxHeight = Math.min(height, Math.ceil(size * 1.25 + 2 * margin));
  const right = position === 'bottomRight' || position === 'topRight';
  const bottom = position === 'bottomRight' || position === 'bottomLeft';
  // White text with a dark outline stays legible on light and dark pictures alike.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">
<text x="${right ? boxWidth - margin : margin}" y="${margin + Math.round(size * 0.95)}" text-anchor="${right ? 'end' : 'start'}"
 font-family="${FONT_FAMILY}" font-weight="700" font-size="${size}" fill="#ffffff" fill-opacity="0.95"
 stroke="#000000" stroke-opacity="0.7" stroke-width="${stroke}" stroke-linejoin="round" paint-order="stroke">${escapeXml(text)}</text>
</svg>`;
  return {
    input: Buffer.from(svg),
    left: right ? width - boxWidth : 0,
    top: bottom ? height - boxHeight : 0,
  };
}

/** A copy of the PNG with the visible mark in the corner; its metadata chunks (prompt, AIGC label) are kept. */
export async function withVisibleMark(png: Buffer, text: string, position: MarkPosition): Promise<Buffer> {
  const { width, height, hasAlpha } = await sharp(png).metadata();
  const painted = sharp(png).composite([markLayer(text, position, width, height)]);
  // Compositing adds an alpha channel; an opaque original stays opaque.
  const picture = await (hasAlpha ? painted : painted.removeAlpha()).png().toBuffer();
  return withMetadataOf(png, picture);
}
