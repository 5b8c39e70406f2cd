import { crc32, inflateSync } from 'node:zlib';

/**
 * PNG text chunks, written the way AUTOMATIC1111 (PIL's PngInfo.add_text) writes `parameters`:
 * tEXt when the text is Latin-1, else an uncompressed iTXt in UTF-8 (Chinese prompts).
 * A chunk is length (4 bytes, big-endian), type, data, CRC-32 of type + data.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const isLatin1 = (text: string) => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
};

/** A copy of the PNG with a text chunk inserted right after IHDR. */
export function addPngText(png: Buffer, keyword: string, text: string): Buffer {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('不是 PNG 图片');
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  const key = Buffer.from(keyword, 'latin1');
  const data = isLatin1(text)
    ? Buffer.concat([key, Buffer.from([0]), Buffer.from(text, 'latin1')])
    : Buffer.concat([key, Buffer.from([0, 0, 0, 0, 0]), Buffer.from(text, 'utf8')]);
  return Buffer.concat([
    png.subarray(0, ihdrEnd),
    chunk(isLatin1(text) ? 'tEXt' : 'iTXt', data),
    png.subarray(ihdrEnd),
  ]);
}

/** Every tEXt, zTXt and iTXt of a PNG, keyword → text. */
export function readPngText(png: Buffer): Record<string, string> {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('不是 PNG 图片');
  const out: Record<string, string> = {};
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    const nul = data.indexOf(0);
    if (nul < 0) {
      if (type === 'IEND') break;
      continue;
    }
    const keyword = data.toString('latin1', 0, nul);
    if (type === 'tEXt') out[keyword] = data.toString('latin1', nul + 1);
    else if (type === 'zTXt') out[keyword] = inflateSync(data.subarray(nul + 2)).toString('latin1');
    else if (type === 'iTXt') {
      const compressed = data[nul + 1] === 1;
      const langEnd = data.indexOf(0, nul + 3);
      const translatedEnd = data.indexOf(0, langEnd + 1);
      const body = data.subarray(translatedEnd + 1);
      out[keyword] = (compressed ? inflateSync(body) : body).toString('utf8');
    }
    if (type === 'IEND') break;
  }
  return out;
}

/**
 * Chunks that hold pixels and how to show them. Every other chunk may carry words: tEXt, zTXt and iTXt
 * (A1111's `parameters`, ComfyUI's `prompt` and `workflow`, XMP), eXIf, and anything unknown.
 */
const PICTURE_CHUNKS = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'pHYs',
]);

/** A copy of the PNG with only its picture chunks: no prompt, graph or metadata of any kind. */
export function withoutPngText(png: Buffer): Buffer {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('不是 PNG 图片');
  const kept = [png.subarray(0, 8)];
  let offset = 8;
  while (offset + 12 <= png.length) {
    const end = offset + 12 + png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (PICTURE_CHUNKS.has(type)) kept.push(png.subarray(offset, end));
    offset = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(kept);
}
