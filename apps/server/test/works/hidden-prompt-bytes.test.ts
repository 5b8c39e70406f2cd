import { crc32, deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { addPngText, readPngText } from '../../src/engines/png-text.js';
import { storeWorkFiles } from '../../src/features/works/work-files.js';
import { newId } from '../../src/platform/ids.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { readZip } from '../helpers/zip.js';

const KEYS = ['parameters', 'prompt', 'workflow'];

/** Every chunk of a PNG with all the text it could carry: raw as Latin-1 and UTF-8, and inflated when compressed. */
function chunksOf(png: Buffer): { type: string; text: string }[] {
  const chunks = [];
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    let text = `${data.toString('latin1')}\n${data.toString('utf8')}`;
    const nul = data.indexOf(0);
    if (type === 'zTXt') text += inflateSync(data.subarray(nul + 2)).toString('utf8');
    if (type === 'iTXt' && data[nul + 1] === 1) {
      const translatedEnd = data.indexOf(0, data.indexOf(0, nul + 3) + 1);
      text += inflateSync(data.subarray(translatedEnd + 1)).toString('utf8');
    }
    chunks.push({ type, text });
    offset += 12 + length;
  }
  return chunks;
}

/** A PNG with one more chunk of any type right after IHDR. */
function withChunk(png: Buffer, type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))) >>> 0, 0);
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, ihdrEnd), head, data, crc, png.subarray(ihdrEnd)]);
}

describeServer('works: the public bytes of a work with 隐藏提示词 carry no prompt', () => {
  const ctx = useTestApp({ users: ['owner'] });
  beforeAll(async () => {
    // The visible AIGC mark is another test's matter (test/compliance): here the pictures stay as painted.
    const compliance = await ctx.app.call('POST', '/api/admin/compliance', {
      token: await loginAdmin(ctx.app),
      body: {
        producer: 'Huafang',
        propagator: '',
        markText: 'AI生成',
        markPosition: 'bottomRight',
        markEnabled: false,
      },
    });
    expect(compliance.body.code).toBe(0);
  });

  const bytes = async (url: string, token?: string) =>
    (await ctx.app.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} }))
      .rawPayload;

  const publish = async (id: string, hidePrompt: boolean) =>
    expect(
      (
        await ctx.app.call('POST', '/api/works/publish', {
          token: ctx.owner.token,
          body: { id, public: true, hidePrompt },
        })
      ).body.code,
    ).toBe(0);

  /** Asserts no chunk of the public original tells the prompt, and that it is still the same picture. */
  async function expectNoPrompt(workId: string, words: string[]) {
    const png = await bytes(`/api/works/image/${workId}`);
    const chunks = chunksOf(png);
    expect(chunks.map((c) => c.type)).toContain('IDAT');
    expect(chunks.at(-1)?.type).toBe('IEND');
    for (const chunk of chunks) {
      for (const word of [...words, ...KEYS]) expect(chunk.text, `${chunk.type} has ${word}`).not.toContain(word);
    }
    // Only the AIGC label stays (the law wants it on every copy); the loop above found no prompt in it.
    expect(Object.keys(readPngText(png)).sort()).toEqual(['AIGC', 'XML:com.adobe.xmp']);
    const shown = await sharp(png).metadata();
    expect(shown).toMatchObject({ format: 'png' });
    expect(shown.exif).toBeUndefined();
    expect(shown.xmp?.toString()).toContain('<TC260:AIGC>');
    const thumb = (await bytes(`/api/works/thumb/${workId}`)).toString('latin1');
    for (const word of words) expect(thumb).not.toContain(word);
    return png;
  }

  /** The owner's own download: the signed link of 我的作品 and the zip keep every chunk (and add the AIGC label). */
  async function expectOwnerKeeps(workId: string, stored: Buffer) {
    const detail = await ctx.app.call('GET', `/api/works/profile/detail?id=${workId}`, { token: ctx.owner.token });
    const own = await bytes(detail.body.data.url);
    expect(chunksOf(own)).toEqual(expect.arrayContaining(chunksOf(stored)));
    const zip = await bytes(`/api/files/downloadZip?ids=${workId}`, ctx.owner.token);
    expect([...(await readZip(zip)).values()]).toEqual([own]);
  }

  it('strips the A1111 parameters of a work painted on the built-in engine; the owner keeps them', async () => {
    const ink = await demoTemplate(ctx.app, ctx.owner.token, '水墨山水');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.owner.token,
      body: generateBody(ink, { width: 256, height: 256, steps: 8 }),
    });
    const { final } = await waitForEnd(ctx.app, ctx.owner.token, submit.body.data.generateId);
    const workId = final.images[0].workId as string;
    const own = (await ctx.app.call('GET', `/api/works/profile/detail?id=${workId}`, { token: ctx.owner.token })).body
      .data;
    const stored = await bytes(own.url);
    expect(readPngText(stored).parameters).toContain(own.prompt);

    await publish(workId, false);
    expect(readPngText(await bytes(`/api/works/image/${workId}`)).parameters).toContain(own.prompt);

    await publish(workId, true);
    const words = [own.prompt, own.negativePrompt, ...`${own.prompt},${own.negativePrompt}`.split(/[,，]\s*/)];
    await expectNoPrompt(
      workId,
      words.filter((word: string) => word.trim().length >= 3),
    );
    await expectOwnerKeeps(workId, stored);
  });

  it('strips a ComfyUI graph, its workflow, compressed text and EXIF too', async () => {
    const prompt = '海边的灯塔，黄昏 lighthouse at dusk';
    const negative = 'blurry watermark';
    const graph = JSON.stringify({ 6: { class_type: 'CLIPTextEncode', inputs: { text: prompt } } });
    let png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#246' } })
      .png()
      .toBuffer();
    png = addPngText(png, 'prompt', graph);
    png = addPngText(png, 'workflow', JSON.stringify({ nodes: [{ widgets_values: [prompt, negative] }] }));
    png = addPngText(png, 'parameters', `${prompt}\nNegative prompt: ${negative}\nSteps: 20`);
    png = withChunk(png, 'zTXt', Buffer.concat([Buffer.from('Comment\0\0'), deflateSync(`negative: ${negative}`)]));
    png = withChunk(png, 'eXIf', Buffer.from(`MM\0*\0\0\0\x08UserComment ${negative}`, 'latin1'));

    const id = newId();
    const files = await storeWorkFiles(ctx.app.services.storage, id, png);
    await ctx.app.services.workRepo.insert({
      id,
      user_id: ctx.owner.userId,
      generation_id: newId(),
      job_id: newId(),
      template_id: null,
      template_name: '自由创作',
      template_step_id: null,
      step_index: 0,
      mode: 'txt2img',
      prompt,
      negative_prompt: negative,
      prompt_group: JSON.stringify([{ id: 'a', groupName: '灯塔', promptText: prompt, custom: '1' }]),
      negative_prompt_group: '[]',
      parameters: JSON.stringify({ steps: 20, seed: 1, width: 64, height: 48 }),
      seed: 1,
      width: 64,
      height: 48,
      backend: '本地 ComfyUI',
      image_key: files.imageKey,
      thumb_key: files.thumbKey,
      public: 0,
      published_at: null,
      created_at: new Date().toISOString(),
    });
    await publish(id, true);

    const shown = await expectNoPrompt(id, ['lighthouse', '灯塔', negative, 'Negative', 'UserComment']);
    expect(await sharp(shown).raw().toBuffer()).toEqual(await sharp(png).raw().toBuffer());
    await expectOwnerKeeps(id, png);
  });
});
