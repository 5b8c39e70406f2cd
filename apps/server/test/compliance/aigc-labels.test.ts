import { crc32 } from 'node:zlib';
import { DEFAULT_COMPLIANCE_SETTINGS } from '@huafang/contracts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppConfigRepository } from '../../src/features/app-config/app-config.repository.js';
import { ComplianceService } from '../../src/features/compliance/compliance.service.js';
import { LocalBroadcast } from '../../src/platform/broadcast/broadcast.js';
import { readBytes } from '../../src/platform/storage/storage.js';
import { createRepositories } from '../../src/repositories.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { SCALE_OUT, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { readZip } from '../helpers/zip.js';
import { seedWorks } from '../works/work-fixtures.js';

const TC260 = 'http://www.tc260.org.cn/ns/AIGC/1.0/';
const SETTINGS = {
  producer: 'HF-OPERATOR-0001',
  propagator: '',
  markText: 'AI生成',
  markPosition: 'bottomRight',
  markEnabled: true,
};

type Chunk = { type: string; keyword: string; text: string };

/** Every chunk of a PNG read from the bytes, each CRC checked: an implementation apart from the server's. */
function pngChunks(png: Buffer): Chunk[] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: Chunk[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length), 'chunk CRC').toBe(crc32(typeAndData) >>> 0);
    const type = typeAndData.toString('latin1', 0, 4);
    const data = typeAndData.subarray(4);
    const nul = data.indexOf(0);
    const keyword = ['tEXt', 'zTXt', 'iTXt'].includes(type) ? data.toString('latin1', 0, nul) : '';
    // iTXt: keyword, compression flag and method, language and translated keyword (both empty here), text.
    const text =
      type === 'tEXt'
        ? data.toString('latin1', nul + 1)
        : type === 'iTXt'
          ? data.subarray(data.indexOf(0, data.indexOf(0, nul + 3) + 1) + 1).toString('utf8')
          : '';
    chunks.push({ type, keyword, text });
    offset += 12 + length;
  }
  return chunks;
}

/** The label of both carriers, which must agree: the tEXt AIGC chunk and the TC260:AIGC property of the XMP. */
async function aigcOf(png: Buffer) {
  const chunks = pngChunks(png);
  const text = chunks.filter((c) => c.keyword === 'AIGC');
  const xmp = chunks.filter((c) => c.keyword === 'XML:com.adobe.xmp');
  expect(text.map((c) => c.type)).toEqual(['tEXt']);
  expect(xmp.map((c) => c.type)).toEqual(['iTXt']);
  const fromText = JSON.parse(text[0]!.text).AIGC;
  // sharp (libvips) reads the XMP packet on its own: the label is where XMP readers look for it.
  const packet = (await sharp(png).metadata()).xmp?.toString('utf8') ?? '';
  expect(packet).toBe(xmp[0]!.text);
  expect(labelOfXmp(packet)).toEqual(fromText);
  expect(Object.keys(fromText)).toEqual(LABEL_ELEMENTS);
  return fromText as Record<string, string>;
}

const LABEL_ELEMENTS = [
  'Label',
  'ContentProducer',
  'ProduceID',
  'ReservedCode1',
  'ContentPropagator',
  'PropagateID',
  'ReservedCode2',
];

/** The seven elements in the TC260:AIGC property of an XMP packet. */
function labelOfXmp(packet: string) {
  expect(packet).toContain(`xmlns:TC260="${TC260}"`);
  const value = /<TC260:AIGC>(.*)<\/TC260:AIGC>/.exec(packet)?.[1] ?? '';
  return JSON.parse(
    value
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

/** The chunks of a WebP file (RIFF): four-character name and payload, read from the bytes. */
function webpChunks(webp: Buffer): Map<string, Buffer> {
  expect(webp.toString('latin1', 0, 4)).toBe('RIFF');
  expect(webp.toString('latin1', 8, 12)).toBe('WEBP');
  expect(webp.readUInt32LE(4) + 8).toBe(webp.length);
  const chunks = new Map<string, Buffer>();
  for (let offset = 12; offset < webp.length; ) {
    const size = webp.readUInt32LE(offset + 4);
    chunks.set(webp.toString('latin1', offset, offset + 4), webp.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size + (size % 2);
  }
  return chunks;
}

/** EXIF UserComment (tag 0x9286 in the Exif IFD) of a TIFF-structured EXIF payload, without its charset prefix. */
function exifUserComment(exif: Buffer): string {
  // WebP's EXIF chunk is the TIFF structure itself; some writers keep JPEG's "Exif\0\0" before it.
  const tiff = exif.toString('latin1', 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => {
      const at = ifd + 2 + i * 12;
      return { tag: u16(at), count: u32(at + 4), value: at + 8 };
    });
  const exifIfd = entries(u32(4)).find((e) => e.tag === 0x8769);
  expect(exifIfd, 'Exif IFD pointer').toBeDefined();
  const comment = entries(u32(exifIfd!.value)).find((e) => e.tag === 0x9286);
  expect(comment, 'UserComment').toBeDefined();
  const start = comment!.count > 4 ? u32(comment!.value) : comment!.value;
  const raw = tiff.subarray(start, start + comment!.count);
  expect(raw.toString('latin1', 0, 8)).toBe('ASCII\0\0\0');
  return raw.toString('latin1', 8).replace(/\0+$/, '');
}

/** The label of a WebP's two carriers, which must agree: its XMP chunk and the UserComment of its EXIF chunk. */
async function webpAigcOf(webp: Buffer) {
  const chunks = webpChunks(webp);
  expect([...chunks.keys()]).toEqual(expect.arrayContaining(['VP8X', 'EXIF', 'XMP ']));
  const packet = chunks.get('XMP ')!.toString('utf8');
  // sharp (libvips, libwebp's demuxer) finds the same packet.
  const meta = await sharp(webp).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.xmp?.toString('utf8')).toBe(packet);
  const fromExif = JSON.parse(exifUserComment(chunks.get('EXIF')!)).AIGC;
  expect(labelOfXmp(packet)).toEqual(fromExif);
  expect(Object.keys(fromExif)).toEqual(LABEL_ELEMENTS);
  return fromExif as Record<string, string>;
}

async function rgbOf(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** How much a pixel of a re-encoded WebP may move without being part of the mark. */
const MARK_THRESHOLD = 96;

/**
 * The box around the pixels of two pictures of the same size that differ by more than `threshold` on some channel
 * (null when none does). Lossy WebP re-encoding moves every pixel a little, the mark (white text, dark outline)
 * moves its own a lot: `MARK_THRESHOLD` tells them apart.
 */
async function changedBox(before: Buffer, after: Buffer, threshold = 0) {
  const a = await rgbOf(before);
  const b = await rgbOf(after);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 3;
      const diff = Math.max(...[0, 1, 2].map((c) => Math.abs(a.data[i + c]! - b.data[i + c]!)));
      if (diff <= threshold) continue;
      box = box
        ? {
            left: Math.min(box.left, x),
            top: Math.min(box.top, y),
            right: Math.max(box.right, x),
            bottom: Math.max(box.bottom, y),
          }
        : { left: x, top: y, right: x, bottom: y };
    }
  }
  return { box, width: a.width, height: a.height };
}

/** A file as the browser gets it (with the user's token when given), which must be there. */
async function fetched(app: TestApp, url: string, token?: string) {
  const res = await app.app.inject({
    method: 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res;
}

describeServer('compliance: AIGC labels on every generated image (GB 45438-2025)', () => {
  const ctx = useTestApp({ admin: true, users: ['owner'] });
  let workId: string;
  let stored: Buffer;

  const bytes = async (url: string, token?: string) => (await fetched(ctx.app, url, token)).rawPayload;
  const save = (body: object, token = ctx.admin) => ctx.app.call('POST', '/api/admin/compliance', { token, body });
  const setUp = async (changes: object = {}) => expect((await save({ ...SETTINGS, ...changes })).body.code).toBe(0);
  const ownerDownload = async (id = workId) => {
    const detail = await ctx.app.call('GET', `/api/works/profile/detail?id=${id}`, { token: ctx.owner.token });
    return bytes(detail.body.data.url);
  };

  describe('合规设置', () => {
    it('starts from the defaults: mark on, AI生成 in the bottom-right corner', async () => {
      const res = await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin });
      expect(res.body).toMatchObject({
        code: 0,
        data: {
          producer: 'Huafang',
          propagator: '',
          markText: 'AI生成',
          markPosition: 'bottomRight',
          markEnabled: true,
        },
      });
      const badge = await ctx.app.call('GET', '/api/app/configs/aigcLabel');
      expect(badge.body).toMatchObject({ code: 0, data: { text: 'AI生成' } });
    });

    it('refuses users who are not admins', async () => {
      for (const method of ['GET', 'POST']) {
        const asUser = await ctx.app.call(method, '/api/admin/compliance', { token: ctx.owner.token, body: SETTINGS });
        expect(asUser).toMatchObject({ status: 403, body: { code: -1, msg: '没有权限执行此操作' } });
        const anonymous = await ctx.app.call(method, '/api/admin/compliance', { body: SETTINGS });
        expect(anonymous).toMatchObject({ status: 401, body: { code: 401 } });
      }
    });

    it('checks every field with a Chinese message', async () => {
      const refused = async (changes: object) => {
        const res = await save({ ...SETTINGS, ...changes });
        expect(res.body.code).toBe(-1);
        return res.body.msg;
      };
      expect(await refused({ markPosition: 'center' })).toBe('标识位置须为右下角、左下角、右上角或左上角');
      expect(await refused({ markText: 'AI生成AI生成AI生成AI生成' })).toBe('标识文字不能超过 12 个字');
      expect(await refused({ markText: '仅供参考' })).toBe(
        '标识文字须同时包含“AI”或“人工智能”与“生成”或“合成”，如“AI生成”',
      );
      expect(await refused({ markText: '  ' })).toBe('请填写标识文字');
      expect(await refused({ producer: '' })).toBe('请填写服务提供者名称或编码');
      expect(await refused({ producer: '画坊科技' })).toBe(
        '服务提供者名称或编码只能包含英文字母、数字和英文符号，不能有空格、双引号或反斜杠',
      );
      expect(await refused({ propagator: 'a b' })).toBe(
        '传播服务提供者名称或编码只能包含英文字母、数字和英文符号，不能有空格、双引号或反斜杠',
      );
      expect(await refused({ producer: 'x'.repeat(65) })).toBe('服务提供者名称或编码不能超过 64 个字符');
      expect(await refused({ markEnabled: 'yes' })).toBe('请选择是否添加显式标识');
      // Nothing of the refused saves was kept.
      expect((await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin })).body.data.producer).toBe(
        'Huafang',
      );
    });

    it('saves with 设置成功 and shows the new badge text', async () => {
      const res = await save({ ...SETTINGS, producer: ' HF-OPERATOR-0001 ', markText: '人工智能生成' });
      expect(res.body).toMatchObject({
        code: 0,
        msg: '设置成功',
        data: { ...SETTINGS, markText: '人工智能生成' },
      });
      expect((await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin })).body.data).toEqual({
        ...SETTINGS,
        markText: '人工智能生成',
      });
      expect((await ctx.app.call('GET', '/api/app/configs/aigcLabel')).body.data).toEqual({ text: '人工智能生成' });
    });
  });

  describe('labels', () => {
    beforeAll(async () => {
      await setUp();
      const ink = await demoTemplate(ctx.app, ctx.owner.token, '水墨山水');
      const submit = await ctx.app.call('POST', '/api/generate/task', {
        token: ctx.owner.token,
        body: generateBody(ink, { width: 320, height: 256, steps: 6 }),
      });
      expect(submit.body.code, submit.body.msg).toBe(0);
      const { final } = await waitForEnd(ctx.app, ctx.owner.token, submit.body.data.generateId);
      expect(final.status).toBe('succeeded');
      workId = final.images[0].workId;
      stored = await readBytes((await ctx.app.services.storage.read(`works/${workId}.png`))!);
    });

    it('writes the implicit label into the stored original, beside the A1111 parameters', async () => {
      const label = await aigcOf(stored);
      expect(label).toEqual({
        Label: '1',
        ContentProducer: SETTINGS.producer,
        ProduceID: workId,
        ReservedCode1: '',
        ContentPropagator: '',
        PropagateID: '',
        ReservedCode2: '',
      });
      expect(pngChunks(stored).find((c) => c.keyword === 'parameters')?.text).toContain('Steps: 6');
    });

    it('draws the visible mark on a download, in the chosen corner, at least 5% of the short side tall', async () => {
      const download = await ownerDownload();
      const { box, width, height } = await changedBox(stored, download);
      expect(box).not.toBeNull();
      // Only the bottom-right corner changed; the rest of the picture is the stored original's.
      expect(box!.left).toBeGreaterThan(width / 2);
      expect(box!.top).toBeGreaterThan(height * 0.75);
      expect(box!.bottom - box!.top + 1).toBeGreaterThanOrEqual(Math.min(width, height) * 0.05);

      const label = await aigcOf(download);
      expect(label).toMatchObject({
        Label: '1',
        ContentProducer: SETTINGS.producer,
        ProduceID: workId,
        // No propagator of its own: the operator hands the copy out.
        ContentPropagator: SETTINGS.producer,
        PropagateID: workId,
      });
      expect(pngChunks(download).find((c) => c.keyword === 'parameters')?.text).toContain('Steps: 6');
      // The stored original stays clean.
      expect(await readBytes((await ctx.app.services.storage.read(`works/${workId}.png`))!)).toEqual(stored);
    });

    it('labels every original of a zip the same way', async () => {
      const zip = await bytes(`/api/files/downloadZip?ids=${workId}`, ctx.owner.token);
      const [entry] = [...(await readZip(zip)).values()];
      expect(entry).toEqual(await ownerDownload());
      expect((await aigcOf(entry!)).ProduceID).toBe(workId);
    });

    it('moves the mark and names the propagator as set', async () => {
      await setUp({ markPosition: 'topLeft', propagator: 'HF-CDN-01' });
      const download = await ownerDownload();
      const { box, width, height } = await changedBox(stored, download);
      expect(box!.right).toBeLessThan(width / 2);
      expect(box!.bottom).toBeLessThan(height / 4);
      expect(await aigcOf(download)).toMatchObject({
        ContentProducer: SETTINGS.producer,
        ContentPropagator: 'HF-CDN-01',
      });
    });

    it('with the mark switched off, downloads keep the original pixels and still carry the label', async () => {
      await setUp({ markEnabled: false });
      const download = await ownerDownload();
      expect((await changedBox(stored, download)).box).toBeNull();
      expect((await aigcOf(download)).ProduceID).toBe(workId);
      const zip = await bytes(`/api/files/downloadZip?ids=${workId}`, ctx.owner.token);
      expect((await changedBox(stored, [...(await readZip(zip)).values()][0]!)).box).toBeNull();
    });

    it('marks public gallery originals; a hidden prompt leaves, the label stays', async () => {
      await setUp();
      const publish = await ctx.app.call('POST', '/api/works/publish', {
        token: ctx.owner.token,
        body: { id: workId, public: true, hidePrompt: true },
      });
      expect(publish.body.code).toBe(0);
      const shown = await bytes(`/api/works/image/${workId}`);
      expect((await changedBox(stored, shown)).box).not.toBeNull();
      expect(
        pngChunks(shown)
          .map((c) => c.keyword)
          .filter(Boolean)
          .sort(),
      ).toEqual(['AIGC', 'XML:com.adobe.xmp']);
      expect(await aigcOf(shown)).toMatchObject({ ContentProducer: SETTINGS.producer, ProduceID: workId });
      // The public thumbnail is a file anyone can save: it carries the label too (see the suite below).
      const thumb = await bytes(`/api/works/thumb/${workId}`);
      expect(await webpAigcOf(thumb)).toMatchObject({ ContentProducer: SETTINGS.producer, ProduceID: workId });
    });

    it('labels a work painted before labels existed on its way out', async () => {
      const [old] = await seedWorks(ctx.app, ctx.owner.userId, [{ prompt: 'painted last year' }]);
      const download = await ownerDownload(old);
      expect(await aigcOf(download)).toMatchObject({
        Label: '1',
        ContentProducer: SETTINGS.producer,
        ProduceID: old,
        PropagateID: old,
      });
    });

    it.runIf(SCALE_OUT)('another API process labels with the new settings at once', async () => {
      const other = await ctx.app.sibling();
      try {
        const detail = await other.call('GET', `/api/works/profile/detail?id=${workId}`, { token: ctx.owner.token });
        const before = (await other.app.inject({ method: 'GET', url: detail.body.data.url })).rawPayload;
        expect((await changedBox(stored, before)).box).not.toBeNull();
        await setUp({ markEnabled: false, producer: 'HF-OPERATOR-0002' });
        const after = (await other.app.inject({ method: 'GET', url: detail.body.data.url })).rawPayload;
        expect((await changedBox(stored, after)).box).toBeNull();
        expect((await aigcOf(after)).ContentPropagator).toBe('HF-OPERATOR-0002');
      } finally {
        await other.close();
      }
    });
  });
});

describeServer('compliance: every file a user can see or save carries both labels, naming AIGC_PRODUCER', () => {
  const PRODUCER = 'HF-ENV-91110000MA01';
  const ctx = useTestApp({ config: { aigcProducer: PRODUCER }, admin: true, users: ['owner'] });
  let generateId: string;
  let image: { workId: string; url: string; thumbUrl: string };
  let previewUrl: string;

  const bytes = (url: string, token?: string) => fetched(ctx.app, url, token);
  const stored = async (key: string) => readBytes((await ctx.app.services.storage.read(key))!);
  const setMark = async (markEnabled: boolean) => {
    const current = (await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin })).body.data;
    const res = await ctx.app.call('POST', '/api/admin/compliance', {
      token: ctx.admin,
      body: { ...current, markEnabled },
    });
    expect(res.body.code).toBe(0);
  };

  beforeAll(async () => {
    const ink = await demoTemplate(ctx.app, ctx.owner.token, '水墨山水');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.owner.token,
      body: generateBody(ink, { width: 320, height: 256, steps: 12 }),
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    generateId = submit.body.data.generateId;
    const { final } = await waitForEnd(ctx.app, ctx.owner.token, generateId);
    expect(final.status).toBe('succeeded');
    image = final.images[0];
    // The last preview stays readable for late pollers after the end.
    previewUrl = final.previewUrl;
    expect(previewUrl).toMatch(/^\/api\/generate\/task\/preview\//);
  });

  it('合规设置 shows the producer of AIGC_PRODUCER until an admin saves another', async () => {
    const res = await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin });
    expect(res.body.data).toMatchObject({ producer: PRODUCER, markEnabled: true });
  });

  it('the original: stored, downloaded and zipped, names AIGC_PRODUCER; what leaves is marked', async () => {
    const original = await stored(`works/${image.workId}.png`);
    expect(await aigcOf(original)).toMatchObject({ Label: '1', ContentProducer: PRODUCER, ProduceID: image.workId });
    const download = (await bytes(image.url)).rawPayload;
    expect(await aigcOf(download)).toMatchObject({
      ContentProducer: PRODUCER,
      ProduceID: image.workId,
      ContentPropagator: PRODUCER,
      PropagateID: image.workId,
    });
    expect((await changedBox(original, download)).box).not.toBeNull();
    const zip = (await bytes(`/api/files/downloadZip?ids=${image.workId}`, ctx.owner.token)).rawPayload;
    expect([...(await readZip(zip)).values()]).toEqual([download]);
  });

  it('the WebP thumbnail: stored with the label; served (signed or public) with the label and the mark', async () => {
    const kept = await stored(`works/${image.workId}.thumb.webp`);
    expect(await webpAigcOf(kept)).toEqual({
      Label: '1',
      ContentProducer: PRODUCER,
      ProduceID: image.workId,
      ReservedCode1: '',
      ContentPropagator: '',
      PropagateID: '',
      ReservedCode2: '',
    });
    const served = await bytes(image.thumbUrl);
    expect(served.headers['content-type']).toBe('image/webp');
    const label = await webpAigcOf(served.rawPayload);
    expect(label).toMatchObject({
      ContentProducer: PRODUCER,
      ProduceID: image.workId,
      ContentPropagator: PRODUCER,
      PropagateID: image.workId,
    });
    // The mark sits in the bottom-right corner, at least 5% of the short side tall.
    const { box, width, height } = await changedBox(kept, served.rawPayload, MARK_THRESHOLD);
    expect(box).not.toBeNull();
    expect(box!.left).toBeGreaterThan(width / 2);
    expect(box!.top).toBeGreaterThan(height * 0.75);
    expect(box!.bottom - box!.top + 1).toBeGreaterThanOrEqual(Math.min(width, height) * 0.05);

    const publish = await ctx.app.call('POST', '/api/works/publish', {
      token: ctx.owner.token,
      body: { id: image.workId, public: true, hidePrompt: false },
    });
    expect(publish.body.code).toBe(0);
    const open = (await bytes(`/api/works/thumb/${image.workId}`)).rawPayload;
    expect(await webpAigcOf(open)).toEqual(label);
    expect((await changedBox(kept, open, MARK_THRESHOLD)).box).not.toBeNull();
    // Nothing else of the original's metadata (its parameters text) reaches the thumbnail.
    expect(open.toString('latin1')).not.toContain('Steps: 12');
  });

  it('the live preview is served as WebP with the label of its generation and the mark', async () => {
    const marked = await bytes(previewUrl);
    expect(marked.headers['content-type']).toBe('image/webp');
    expect(await webpAigcOf(marked.rawPayload)).toEqual({
      Label: '1',
      ContentProducer: PRODUCER,
      ProduceID: generateId,
      ReservedCode1: '',
      ContentPropagator: PRODUCER,
      PropagateID: generateId,
      ReservedCode2: '',
    });
    await setMark(false);
    try {
      const plain = (await bytes(previewUrl)).rawPayload;
      expect((await webpAigcOf(plain)).ProduceID).toBe(generateId);
      const { box, width, height } = await changedBox(plain, marked.rawPayload, MARK_THRESHOLD);
      expect(box).not.toBeNull();
      expect(box!.left).toBeGreaterThan(width / 2);
      expect(box!.top).toBeGreaterThan(height * 0.7);
      // The thumbnail without the mark differs from the stored one by re-encoding only.
      const thumb = (await bytes(image.thumbUrl)).rawPayload;
      expect(
        (await changedBox(await stored(`works/${image.workId}.thumb.webp`), thumb, MARK_THRESHOLD)).box,
      ).toBeNull();
    } finally {
      await setMark(true);
    }
  });

  it('saving the producer of AIGC_PRODUCER keeps following the variable; another value overrides it', async () => {
    // setMark saved the whole form, AIGC_PRODUCER's value included: a process started after the operator changed
    // the variable names the new value.
    const restarted = new ComplianceService(
      createRepositories(ctx.app.db, ctx.app.config.database.kind),
      new LocalBroadcast(),
      false,
      'HF-ENV-NEXT',
    );
    expect((await restarted.settings()).producer).toBe('HF-ENV-NEXT');
    const current = (await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin })).body.data;
    const save = await ctx.app.call('POST', '/api/admin/compliance', {
      token: ctx.admin,
      body: { ...current, producer: 'HF-ADMIN-0007' },
    });
    expect(save.body).toMatchObject({ code: 0, data: { producer: 'HF-ADMIN-0007' } });
    expect((await restarted.settings()).producer).toBe('HF-ADMIN-0007');
    expect((await webpAigcOf((await bytes(previewUrl)).rawPayload)).ContentProducer).toBe('HF-ADMIN-0007');
    // A work already painted keeps the producer it was painted with.
    expect((await webpAigcOf((await bytes(image.thumbUrl)).rawPayload)).ContentProducer).toBe(PRODUCER);
  });

  it('a form saved before AIGC_PRODUCER existed (the built-in Huafang stored with it) names the variable', async () => {
    const current = (await ctx.app.call('GET', '/api/admin/compliance', { token: ctx.admin })).body.data;
    // Saved as a release without the variable stored it: the whole form, the built-in producer included.
    await new AppConfigRepository(ctx.app.db).upsert(
      'compliance',
      '合规设置',
      JSON.stringify({ ...current, producer: DEFAULT_COMPLIANCE_SETTINGS.producer }),
      new Date().toISOString(),
    );
    const upgraded = new ComplianceService(
      createRepositories(ctx.app.db, ctx.app.config.database.kind),
      new LocalBroadcast(),
      false,
      'HF-ENV-NEXT',
    );
    expect((await upgraded.settings()).producer).toBe('HF-ENV-NEXT');
  });
});
