import { z } from 'zod';
import { isTextNamed, pngParts, readPngText, textChunk } from '../../engines/png-text.js';

/**
 * The implicit label (隐式标识) of GB 45438-2025 Annex E: the metadata field AIGC with seven string elements. In a
 * PNG it is written twice over, as the TC260 image guide describes: an XMP packet (iTXt XML:com.adobe.xmp) with the
 * property AIGC in the TC260 namespace, and a tEXt chunk named AIGC. Both carry the same label.
 */
const aigcLabelSchema = z.object({
  /** 1 属于 (generated), 2 可能 (possibly), 3 疑似 (suspected) AI-generated. */
  Label: z.enum(['1', '2', '3']),
  ContentProducer: z.string(),
  ProduceID: z.string(),
  ReservedCode1: z.string(),
  ContentPropagator: z.string(),
  PropagateID: z.string(),
  ReservedCode2: z.string(),
});
export type AigcLabel = z.infer<typeof aigcLabelSchema>;

const AIGC_KEYWORD = 'AIGC';
const XMP_KEYWORD = 'XML:com.adobe.xmp';
const TC260_NAMESPACE = 'http://www.tc260.org.cn/ns/AIGC/1.0/';

/** The label of an image the service painted: ours, generated; propagation is filled in when it leaves. */
export const producedLabel = (producer: string, workId: string): AigcLabel => ({
  Label: '1',
  ContentProducer: producer,
  ProduceID: workId,
  ReservedCode1: '',
  ContentPropagator: '',
  PropagateID: '',
  ReservedCode2: '',
});

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An XMP packet holding only the label: the JSON of the seven elements as the value of TC260:AIGC. */
export function aigcXmp(label: AigcLabel): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:TC260="${TC260_NAMESPACE}">`,
    `<TC260:AIGC>${escapeXml(JSON.stringify(label))}</TC260:AIGC>`,
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('');
}

/** Whether a chunk is one of an implicit label's two: the AIGC text or the XMP packet. */
export const isAigcChunk = (type: string, data: Buffer) => isTextNamed(type, data, [AIGC_KEYWORD, XMP_KEYWORD]);

/** The chunks of `label`, in the order withAigcLabel puts them right after IHDR: the XMP packet, the AIGC text. */
export const aigcChunks = (label: AigcLabel) => [
  textChunk(XMP_KEYWORD, aigcXmp(label), { itxt: true }),
  textChunk(AIGC_KEYWORD, JSON.stringify({ AIGC: label })),
];

/**
 * A copy of the PNG carrying `label` and no other: an earlier AIGC text and XMP packet are replaced, since a file
 * should hold one implicit label (engines write no XMP of their own).
 */
export function withAigcLabel(png: Buffer, label: AigcLabel): Buffer {
  return Buffer.concat(pngParts(png, aigcChunks(label), (type, data) => !isAigcChunk(type, data)));
}

const aigcTextSchema = z.object({ AIGC: aigcLabelSchema });

/** The label of the AIGC text chunk, or null when the PNG has none (works painted before labels existed). */
export function readAigcLabel(png: Buffer): AigcLabel | null {
  const text = readPngText(png)[AIGC_KEYWORD];
  if (text === undefined) return null;
  try {
    return aigcTextSchema.parse(JSON.parse(text)).AIGC;
  } catch {
    return null;
  }
}

/**
 * The label in the carriers of formats other than PNG (the TC260 guide: XMP for any image, EXIF UserComment as in
 * JPEG), for sharp's withXmp and withExif: WebP thumbnails and live previews carry both, like a PNG its two chunks.
 */
export const aigcMetadata = (label: AigcLabel) => ({
  xmp: aigcXmp(label),
  exif: { IFD2: { UserComment: JSON.stringify({ AIGC: label }) } },
});

const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The label of an XMP packet (TC260:AIGC), or null when it holds none. */
export function readXmpLabel(xmp: string): AigcLabel | null {
  const value = /<TC260:AIGC>([^<]*)<\/TC260:AIGC>/.exec(xmp)?.[1];
  if (value === undefined) return null;
  try {
    return aigcLabelSchema.parse(JSON.parse(unescapeXml(value)));
  } catch {
    return null;
  }
}
