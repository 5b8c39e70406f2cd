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

/**
 * A text chunk: tEXt when the text is Latin-1, else an uncompressed iTXt in UTF-8. `itxt` writes iTXt even for
 * Latin-1 text: XMP must be an iTXt named XML:com.adobe.xmp.
 */
export function textChunk(keyword: string, text: string, { itxt = false } = {}): Buffer {
  const latin1 = !itxt && isLatin1(text);
  const key = Buffer.from(keyword, 'latin1');
  const data = latin1
    ? Buffer.concat([key, Buffer.from([0]), Buffer.from(text, 'latin1')])
    : Buffer.concat([key, Buffer.from([0, 0, 0, 0, 0]), Buffer.from(text, 'utf8')]);
  return chunk(latin1 ? 'tEXt' : 'iTXt', data);
}

/** A copy of the PNG with a text chunk (see textChunk) inserted right after IHDR. */
export function addPngText(png: Buffer, keyword: string, text: string, options: { itxt?: boolean } = {}): Buffer {
  return withChunksAfterIhdr(png, [textChunk(keyword, text, options)]);
}

function withChunksAfterIhdr(png: Buffer, chunks: Buffer[]): Buffer {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('不是 PNG 图片');
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}

/** A copy of the PNG with a chunk of `type` (a private one, say) right after IHDR. */
export function withChunkAfterIhdr(png: Buffer, type: string, data: Buffer): Buffer {
  return withChunksAfterIhdr(png, [chunk(type, data)]);
}

/** Whether the chunk right after IHDR is of `type` and holds `data`. */
export function chunkAfterIhdrIs(png: Buffer, type: string, data: Buffer): boolean {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return false;
  const at = 8 + 12 + png.readUInt32BE(8);
  if (at + 12 > png.length || png.toString('latin1', at + 4, at + 8) !== type) return false;
  const length = png.readUInt32BE(at);
  return length === data.length && png.subarray(at + 8, at + 8 + length).equals(data);
}

type RawChunk = { type: string; bytes: Buffer; data: Buffer };

/** Every chunk of the PNG up to IEND, whole (length, type, data, CRC) and its data alone. */
function* chunksOf(png: Buffer): Generator<RawChunk> {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('不是 PNG 图片');
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    yield {
      type,
      bytes: png.subarray(offset, offset + 12 + length),
      data: png.subarray(offset + 8, offset + 8 + length),
    };
    offset += 12 + length;
    if (type === 'IEND') break;
  }
}

const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);
const keywordOf = (data: Buffer) => data.toString('latin1', 0, Math.max(0, data.indexOf(0)));

/** Whether a chunk is a text chunk (tEXt, zTXt, iTXt) named by one of `keywords`. */
export const isTextNamed = (type: string, data: Buffer, keywords: readonly string[]) =>
  TEXT_CHUNKS.has(type) && keywords.includes(keywordOf(data));

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

/** Whether a chunk holds pixels or how to show them; any other may carry words. */
export const isPictureChunk = (type: string) => PICTURE_CHUNKS.has(type);

/** A copy of the PNG without the text chunks (tEXt, zTXt, iTXt) named by any of `keywords`. */
export function withoutPngTextNamed(png: Buffer, keywords: readonly string[]): Buffer {
  const kept = [...chunksOf(png)].filter((c) => !isTextNamed(c.type, c.data, keywords)).map((c) => c.bytes);
  return Buffer.concat([SIGNATURE, ...kept]);
}

/**
 * A copy of the PNG with `added` right after IHDR and, of the chunks after it, those `keep` accepts, up to IEND;
 * given as its pieces: slices of `png` (a run of kept chunks is one slice) and the added chunks, so nothing is
 * copied. Buffer.concat of them is the file; a zip writes them one after another.
 */
export function pngParts(png: Buffer, added: Buffer[], keep: (type: string, data: Buffer) => boolean): Buffer[] {
  const parts: Buffer[] = [];
  let runStart = -1;
  let runEnd = -1;
  for (const c of chunksOf(png)) {
    const start = c.bytes.byteOffset - png.byteOffset;
    const end = start + c.bytes.length;
    if (runStart < 0) {
      // The signature and IHDR, then what is added.
      parts.push(png.subarray(0, end), ...added);
      runStart = runEnd = end;
    } else if (keep(c.type, c.data)) {
      if (start !== runEnd) {
        if (runEnd > runStart) parts.push(png.subarray(runStart, runEnd));
        runStart = start;
      }
      runEnd = end;
    }
  }
  if (runEnd > runStart) parts.push(png.subarray(runStart, runEnd));
  return parts;
}

/**
 * `picture` (a re-encoding of `source`, which drops metadata) with every non-picture chunk of `source` put back
 * right after IHDR: text, XMP, EXIF and unknown chunks travel with the pixels.
 */
export function withMetadataOf(source: Buffer, picture: Buffer): Buffer {
  const metadata = [...chunksOf(source)].filter((c) => !PICTURE_CHUNKS.has(c.type)).map((c) => c.bytes);
  return withChunksAfterIhdr(picture, metadata);
}
