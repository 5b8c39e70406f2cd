import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINE_LABEL, BuiltinEngine } from '../../src/engines/builtin/builtin-engine.js';
import { describeScene, parsePrompt } from '../../src/engines/builtin/scene.js';
import { buildPromptText, type EngineJob, type EngineProgress } from '../../src/engines/engine.js';
import { readPngText } from '../../src/engines/png-text.js';

const engine = new BuiltinEngine();

const job = (overrides: Partial<EngineJob> = {}): EngineJob => ({
  mode: 'txt2img',
  prompt: '水墨, 山, 月',
  negativePrompt: 'low quality',
  checkpoint: 'builtin-ink',
  sampler: 'Euler a',
  steps: 8,
  cfgScale: 7,
  width: 128,
  height: 96,
  seed: 1234,
  batchSize: 1,
  ...overrides,
});

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info };
}

async function meanAbsDiff(a: Buffer, b: Buffer): Promise<number> {
  const pa = await pixels(a);
  const pb = await pixels(b);
  expect(pa.info.width).toBe(pb.info.width);
  let sum = 0;
  for (let i = 0; i < pa.data.length; i++) sum += Math.abs(pa.data[i]! - pb.data[i]!);
  return sum / pa.data.length;
}

/** A white square on black, as a PNG. */
async function squarePng(size = 128, from = 32, to = 96): Promise<Buffer> {
  const raw = Buffer.alloc(size * size);
  for (let y = from; y < to; y++) for (let x = from; x < to; x++) raw[y * size + x] = 255;
  return sharp(raw, { raw: { width: size, height: size, channels: 1 } })
    .png()
    .toBuffer();
}

describe('built-in demo engine', () => {
  it('is labelled plainly as the demo engine and lists its catalog', async () => {
    expect(engine.label).toBe('内置演示引擎');
    expect(BUILTIN_ENGINE_LABEL).toBe('内置演示引擎');
    expect(engine.kind).toBe('builtin');
    const models = await engine.listModels();
    expect(models.map((m) => m.title)).toEqual(
      expect.arrayContaining(['builtin-realistic', 'builtin-ink', 'builtin-anime', 'builtin-gongbi']),
    );
    expect(await engine.listSamplers()).toContain('Euler a');
    const modules = await engine.listControlNetModules();
    expect(modules.map((m) => m.value)).toEqual(expect.arrayContaining(['canny', 'depth', 'lineart', 'invert']));
    expect(JSON.parse(modules.find((m) => m.value === 'canny')!.fromConfig!)).toContain('thresholdA');
    expect(await engine.listControlNetModels()).toContain('control_v11p_sd15_canny');
    const health = await engine.health();
    expect(health).toMatchObject({ ok: true, busy: false });
    expect(health.message).toContain('内置演示引擎');
  });

  it('renders byte-identical PNGs for the same inputs', async () => {
    const a = await engine.run(job());
    const b = await engine.run(job());
    expect(a.images[0]!.png.equals(b.images[0]!.png)).toBe(true);
  });

  it('paints a different picture for another prompt or another seed', async () => {
    const base = (await engine.run(job())).images[0]!.png;
    const otherPrompt = (await engine.run(job({ prompt: '赛博朋克, 城市, 夜', checkpoint: 'builtin-realistic' })))
      .images[0]!.png;
    const otherSeed = (await engine.run(job({ seed: 99 }))).images[0]!.png;
    expect(await meanAbsDiff(base, otherPrompt)).toBeGreaterThan(20);
    expect(await meanAbsDiff(base, otherSeed)).toBeGreaterThan(1);
  });

  it('honours width, height and batch size with seeds seed, seed+1 …', async () => {
    const result = await engine.run(job({ width: 160, height: 72, batchSize: 3, seed: 500 }));
    expect(result.images).toHaveLength(3);
    expect(result.images.map((i) => i.seed)).toEqual([500, 501, 502]);
    for (const image of result.images) {
      const meta = await sharp(image.png).metadata();
      expect([meta.width, meta.height, image.width, image.height]).toEqual([160, 72, 160, 72]);
    }
    expect(result.images[0]!.png.equals(result.images[1]!.png)).toBe(false);
    const single = await engine.run(job({ width: 160, height: 72, seed: 501 }));
    expect(await meanAbsDiff(single.images[0]!.png, result.images[1]!.png)).toBe(0);
  });

  it('draws a random seed for -1 and reports it', async () => {
    const result = await engine.run(job({ seed: -1, batchSize: 2 }));
    const seed = result.seed;
    expect(Number.isInteger(seed) && seed >= 0).toBe(true);
    expect(result.images[0]!.seed).toBe(seed);
    expect(result.images[1]!.seed).toBe(seed + 1);
    expect(result.images[0]!.infotext).toContain(`Seed: ${seed}`);
    const replay = await engine.run(job({ seed, batchSize: 1 }));
    expect(replay.images[0]!.png.equals(result.images[0]!.png)).toBe(false); // infotext differs (batch size) …
    expect(await meanAbsDiff(replay.images[0]!.png, result.images[0]!.png)).toBe(0); // … the picture does not
  });

  it('reports monotonic progress with previews along the way', async () => {
    const events: EngineProgress[] = [];
    await engine.run(job({ steps: 12, batchSize: 2 }), { onProgress: (p) => events.push(p) });
    expect(events).toHaveLength(24);
    expect(events.map((e) => e.step)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(events.every((e) => e.totalSteps === 24)).toBe(true);
    expect(events.at(-1)!.percent).toBe(100);
    for (let i = 1; i < events.length; i++) expect(events[i]!.percent).toBeGreaterThan(events[i - 1]!.percent);
    expect(events.every((e) => e.etaSeconds >= 0)).toBe(true);
    const previews = events.filter((e) => e.preview);
    expect(previews.length).toBeGreaterThanOrEqual(4);
    const meta = await sharp(previews[0]!.preview!).metadata();
    expect(meta.format).toBe('webp');
    expect(previews[0]!.previewMime).toBe('image/webp');
  });

  it('previews emerge from noise toward the final picture', async () => {
    const previews: Buffer[] = [];
    const engineEvery = new BuiltinEngine({ previewEvery: 1, previewSize: 128 });
    const result = await engineEvery.run(job({ steps: 10, width: 128, height: 128 }), {
      onProgress: (p) => p.preview && previews.push(p.preview),
    });
    const final = await sharp(result.images[0]!.png).resize(128, 128).png().toBuffer();
    const first = await sharp(previews[0]!).png().toBuffer();
    const last = await sharp(previews.at(-1)!).png().toBuffer();
    expect(await meanAbsDiff(first, final)).toBeGreaterThan(await meanAbsDiff(last, final));
  });

  it('stops at the next step when aborted and returns the current canvas, marked interrupted', async () => {
    const controller = new AbortController();
    const events: EngineProgress[] = [];
    const result = await engine.run(job({ steps: 20, batchSize: 2 }), {
      signal: controller.signal,
      onProgress: (p) => {
        events.push(p);
        if (p.step === 5) controller.abort();
      },
    });
    expect(result.interrupted).toBe(true);
    expect(events.at(-1)!.step).toBe(5);
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.interrupted).toBe(true);
    const meta = await sharp(result.images[0]!.png).metadata();
    expect(meta.width).toBe(128);
  });

  it('img2img with denoising strength 0 keeps the init image; higher strength moves away from it', async () => {
    const init = (await engine.run(job({ prompt: '花, 粉色', checkpoint: 'builtin-realistic' }))).images[0]!.png;
    const kept = await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 0 }));
    expect(await meanAbsDiff(kept.images[0]!.png, init)).toBeLessThan(1);
    const half = await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 0.5 }));
    const full = await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 1 }));
    const dHalf = await meanAbsDiff(half.images[0]!.png, init);
    expect(dHalf).toBeGreaterThan(2);
    expect(await meanAbsDiff(full.images[0]!.png, init)).toBeGreaterThan(dHalf);
    expect(half.images[0]!.infotext).toContain('Denoising strength: 0.5');
  });

  it('finds the edges of a drawn square with canny', async () => {
    const map = await engine.preprocess('canny', await squarePng(), {
      processorRes: 128,
      thresholdA: 100,
      thresholdB: 200,
    });
    const { data, info } = await sharp(map).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([128, 128]);
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    const near = (x: number, y: number) => {
      let max = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) max = Math.max(max, at(x + dx, y + dy));
      return max;
    };
    for (const [x, y] of [
      [64, 32],
      [64, 95],
      [32, 64],
      [95, 64],
    ] as const) {
      expect(near(x, y)).toBe(255);
    }
    expect(at(64, 64)).toBe(0);
    expect(at(10, 10)).toBe(0);
    expect(at(120, 64)).toBe(0);
  });

  it('preprocesses depth, line-art and invert on real pixels, and refuses unknown modules', async () => {
    const square = await squarePng();
    const depth = await pixels(await engine.preprocess('depth', square, { processorRes: 128 }));
    expect(depth.data[(64 * 128 + 64) * depth.info.channels]).toBeGreaterThan(200);
    expect(depth.data[(5 * 128 + 5) * depth.info.channels]).toBeLessThan(30);
    const inverted = await pixels(await engine.preprocess('invert', square, { processorRes: 128 }));
    expect(inverted.data[(64 * 128 + 64) * inverted.info.channels]).toBeLessThan(30);
    const lines = await pixels(await engine.preprocess('lineart', square, { processorRes: 128 }));
    const line = (x: number) => lines.data[(64 * 128 + x) * lines.info.channels]!;
    expect(Math.max(line(29), line(30), line(31), line(32))).toBeGreaterThan(200);
    expect(line(64)).toBe(0);
    expect(line(10)).toBe(0);
    await expect(engine.preprocess('openpose', square)).rejects.toThrow('不支持');
  });

  it('lets a ControlNet map steer the picture by its weight', async () => {
    const control = { module: 'canny', model: 'control_v11p_sd15_canny', image: await squarePng(), guidanceStart: 0 };
    const plain = (await engine.run(job({ prompt: '花', checkpoint: 'builtin-realistic' }))).images[0]!.png;
    const weak = (
      await engine.run(
        job({ prompt: '花', checkpoint: 'builtin-realistic', controlNets: [{ ...control, weight: 0.3 }] }),
      )
    ).images[0]!.png;
    const strong = (
      await engine.run(
        job({ prompt: '花', checkpoint: 'builtin-realistic', controlNets: [{ ...control, weight: 1.5 }] }),
      )
    ).images[0]!.png;
    const dWeak = await meanAbsDiff(plain, weak);
    expect(dWeak).toBeGreaterThan(0);
    expect(await meanAbsDiff(plain, strong)).toBeGreaterThan(dWeak);
  });

  it('upscales with real resampling to twice the size', async () => {
    const source = (await engine.run(job({ width: 96, height: 64 }))).images[0]!.png;
    const result = await engine.run(job({ mode: 'upscale', initImage: source }));
    const meta = await sharp(result.images[0]!.png).metadata();
    expect([meta.width, meta.height]).toEqual([192, 128]);
    expect(result.images[0]).toMatchObject({ width: 192, height: 128 });
    expect(readPngText(result.images[0]!.png).parameters).toContain('Postprocess upscale by: 2');
  });

  it('writes the A1111 parameters text into the PNG (UTF-8 for Chinese prompts)', async () => {
    const result = await engine.run(job({ prompt: '水墨, (山:1.3), 月', negativePrompt: '文字, watermark' }));
    const text = readPngText(result.images[0]!.png).parameters;
    expect(text).toBe(
      '水墨, (山:1.3), 月\nNegative prompt: 文字, watermark\nSteps: 8, Sampler: Euler a, Schedule type: Automatic, CFG scale: 7, Seed: 1234, Size: 128x96, Model hash: cbd5113d77, Model: builtin-ink',
    );
    expect(result.images[0]!.infotext).toBe(text);
    const latin = await engine.run(job({ prompt: 'mountain, moon', negativePrompt: '' }));
    expect(readPngText(latin.images[0]!.png).parameters).toBe(
      'mountain, moon\nSteps: 8, Sampler: Euler a, Schedule type: Automatic, CFG scale: 7, Seed: 1234, Size: 128x96, Model hash: cbd5113d77, Model: builtin-ink',
    );
    // sharp still decodes the file with the extra chunk
    expect((await sharp(latin.images[0]!.png).metadata()).format).toBe('png');
  });

  it('removes an element named in the negative prompt', async () => {
    const withMoon = await engine.run(job({ prompt: '山, 月, 夜', negativePrompt: '' }));
    const negated = await engine.run(job({ prompt: '山, 月, 夜', negativePrompt: '月' }));
    const withoutMoon = await engine.run(job({ prompt: '山, 夜', negativePrompt: '' }));
    expect(await meanAbsDiff(negated.images[0]!.png, withoutMoon.images[0]!.png)).toBe(0);
    expect(await meanAbsDiff(negated.images[0]!.png, withMoon.images[0]!.png)).toBeGreaterThan(0.3);
  });
});

describe('prompt words of the built-in engine', () => {
  it('parses A1111 attention weights', () => {
    expect(parsePrompt('(mountain:1.3), ((moon)), [cloud], sea')).toEqual([
      { text: 'mountain', weight: 1.3 },
      { text: 'moon', weight: expect.closeTo(1.21, 5) },
      { text: 'cloud', weight: expect.closeTo(1 / 1.1, 5) },
      { text: 'sea', weight: 1 },
    ]);
  });

  it('reads colours, style and subjects in Chinese and English; negatives and weights count', () => {
    const scene = describeScene('赛博朋克, city, (红色:1.4), 猫, quantum teapot', '猫', 'builtin-realistic');
    expect(scene.style).toBe('cyberpunk');
    expect(scene.colors.red).toBeCloseTo(1.4);
    expect(scene.subjects.city).toBe(1);
    expect(scene.subjects.cat).toBeUndefined();
    expect(scene.shapes).toEqual([{ text: 'quantum teapot', weight: 1 }]);
    expect(describeScene('flower', '', 'builtin-gongbi').style).toBe('gongbi');
    expect(describeScene('black and white, 山', '', 'x').colors).toEqual({ monochrome: 1 });
  });

  it('builds prompt text from prompt groups', () => {
    expect(
      buildPromptText([
        { groupName: '山', promptText: '(mountain:1.2)' },
        { groupName: '月亮', promptText: '' },
        { groupName: '山', promptText: '(mountain:1.2)' },
      ]),
    ).toBe('(mountain:1.2), 月亮');
  });
});
