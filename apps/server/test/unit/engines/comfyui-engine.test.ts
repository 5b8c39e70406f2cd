import { once } from 'node:events';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ComfyUiEngine, type ComfyUiEngineOptions } from '../../../src/engines/comfyui/comfyui-engine.js';
import {
  buildGenerationGraph,
  type ComfyGraph,
  type ComfyLink,
  comboOptions,
  fromComfySampler,
  parseObjectInfo,
  preprocessorOptions,
  resolvePreprocessor,
  samplerDisplayNames,
  toComfySampler,
} from '../../../src/engines/comfyui/comfyui-graph.js';
import { parsePreviewFrame } from '../../../src/engines/comfyui/comfyui-messages.js';
import type { EngineJob, EngineProgress } from '../../../src/engines/engine.js';
import { readPngText } from '../../../src/engines/png-text.js';
import { type ComfyUiDouble, type ComfyUiDoubleOptions, startComfyUiDouble } from '../../doubles/comfyui-double.js';
import { freePort } from '../../helpers/free-port.js';
import { engineError, engineJob } from './engine-test-kit.js';

const CHECKPOINT = 'sd15/dreamshaper_8.safetensors';

const job = (overrides: Partial<EngineJob> = {}) =>
  engineJob({ prompt: '水墨, 山, 月', negativePrompt: 'low quality', checkpoint: CHECKPOINT, steps: 4, ...overrides });

const png = (width: number, height: number, r = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 40, b: 40 } } })
    .png()
    .toBuffer();

/** The nodes of a class, as [id, node]. */
const nodes = (graph: ComfyGraph, classType: string) =>
  Object.entries(graph).filter(([, node]) => node.class_type === classType);
const only = (graph: ComfyGraph, classType: string) => {
  const found = nodes(graph, classType);
  expect(found).toHaveLength(1);
  return found[0]!;
};
/** The node a link points at. */
const target = (graph: ComfyGraph, link: unknown) => {
  const [id] = link as ComfyLink;
  return graph[id]!;
};

const doubles: ComfyUiDouble[] = [];
afterEach(async () => {
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function start(options: ComfyUiDoubleOptions = {}) {
  const double = await startComfyUiDouble({ stepDelayMs: 2, ...options });
  doubles.push(double);
  return double;
}

/** An address on this machine where nothing listens: connecting is refused at once. */
const refusedUrl = async () => `http://127.0.0.1:${await freePort()}`;

const engineFor = (double: ComfyUiDouble, options: Partial<ComfyUiEngineOptions> = {}) =>
  new ComfyUiEngine({ baseUrl: double.url, pollIntervalMs: 20, requestTimeoutMs: 2_000, ...options });

describe('ComfyUI graph builders', () => {
  it('builds txt2img: checkpoint → prompts → empty latent → KSampler → decode → save', () => {
    const plan = buildGenerationGraph(job(), { seed: 99 });
    const { graph } = plan;
    const [ckptId, ckpt] = only(graph, 'CheckpointLoaderSimple');
    expect(ckpt.inputs.ckpt_name).toBe(CHECKPOINT);
    const [samplerId, sampler] = only(graph, 'KSampler');
    expect(sampler.inputs).toMatchObject({
      model: [ckptId, 0],
      seed: 99,
      steps: 4,
      cfg: 7,
      sampler_name: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 1,
    });
    expect(target(graph, sampler.inputs.positive).inputs).toEqual({ text: '水墨, 山, 月', clip: [ckptId, 1] });
    expect(target(graph, sampler.inputs.negative).inputs).toEqual({ text: 'low quality', clip: [ckptId, 1] });
    expect(target(graph, sampler.inputs.latent_image)).toEqual({
      class_type: 'EmptyLatentImage',
      inputs: { width: 64, height: 64, batch_size: 1 },
    });
    const [decodeId, decode] = only(graph, 'VAEDecode');
    expect(decode.inputs).toEqual({ samples: [samplerId, 0], vae: [ckptId, 2] });
    const [saveId, save] = only(graph, 'SaveImage');
    expect(save.inputs.images).toEqual([decodeId, 0]);
    expect(plan.samplers).toEqual(new Map([[samplerId, 0]]));
    expect(plan.outputs).toEqual(new Map([[saveId, 0]]));
    expect(plan.seeds).toEqual([99]);
  });

  it('paints a batch with one sampler per image (seed + i), or one latent batch sharing the seed', () => {
    const sequential = buildGenerationGraph(job({ batchSize: 3 }), { seed: 10 });
    expect(nodes(sequential.graph, 'KSampler').map(([, n]) => n.inputs.seed)).toEqual([10, 11, 12]);
    expect(nodes(sequential.graph, 'SaveImage')).toHaveLength(3);
    expect(only(sequential.graph, 'EmptyLatentImage')[1].inputs.batch_size).toBe(1);
    expect(sequential.seeds).toEqual([10, 11, 12]);
    expect([...sequential.outputs.values()]).toEqual([0, 1, 2]);

    const latent = buildGenerationGraph(job({ batchSize: 3 }), { seed: 10, batchMode: 'latent' });
    expect(only(latent.graph, 'KSampler')[1].inputs.seed).toBe(10);
    expect(only(latent.graph, 'EmptyLatentImage')[1].inputs.batch_size).toBe(3);
    expect(latent.seeds).toEqual([10, 10, 10]);
    expect(latent.sharedSampler).toBe(true);
  });

  it('builds img2img from the uploaded image, and inpaint with a noise mask', () => {
    const img = buildGenerationGraph(job({ mode: 'img2img', denoisingStrength: 0.55 }), {
      seed: 1,
      images: { init: 'init.png' },
    });
    const { graph } = img;
    const [ckptId] = only(graph, 'CheckpointLoaderSimple');
    const [, sampler] = only(graph, 'KSampler');
    expect(sampler.inputs.denoise).toBe(0.55);
    const encode = target(graph, sampler.inputs.latent_image);
    expect(encode.class_type).toBe('VAEEncode');
    expect(encode.inputs.vae).toEqual([ckptId, 2]);
    const scale = target(graph, encode.inputs.pixels);
    expect(scale.inputs).toMatchObject({ upscale_method: 'lanczos', width: 64, height: 64, crop: 'disabled' });
    expect(target(graph, scale.inputs.image)).toEqual({ class_type: 'LoadImage', inputs: { image: 'init.png' } });
    expect(nodes(graph, 'EmptyLatentImage')).toHaveLength(0);

    const inpaint = buildGenerationGraph(job({ mode: 'inpaint' }), {
      seed: 1,
      images: { init: 'init.png', mask: 'mask.png' },
    }).graph;
    const [, inpaintSampler] = only(inpaint, 'KSampler');
    const masked = target(inpaint, inpaintSampler.inputs.latent_image);
    expect(masked.class_type).toBe('SetLatentNoiseMask');
    expect(target(inpaint, masked.inputs.samples).class_type).toBe('VAEEncode');
    expect(target(inpaint, masked.inputs.mask)).toEqual({
      class_type: 'LoadImageMask',
      inputs: { image: 'mask.png', channel: 'red' },
    });
    expect(inpaintSampler.inputs.denoise).toBe(0.75);
  });

  it('chains ControlNet units: each apply takes the previous conditioning, the sampler the last', () => {
    const info = parseObjectInfo({
      Canny: {
        input: {
          required: {
            image: ['IMAGE'],
            low_threshold: ['FLOAT', { default: 0.4, min: 0.01, max: 0.99, step: 0.01 }],
            high_threshold: ['FLOAT', { default: 0.8, min: 0.01, max: 0.99, step: 0.01 }],
          },
        },
        output: ['IMAGE'],
      },
    });
    const units = [
      { module: 'canny', model: 'canny.pth', image: Buffer.alloc(0), weight: 0.8, thresholdA: 100, thresholdB: 200 },
      { module: 'none', model: 'depth.pth', image: Buffer.alloc(0), guidanceStart: 0.2, guidanceEnd: 0.9 },
    ];
    const preprocessors = units.map((unit) => resolvePreprocessor(unit.module, info, unit));
    const { graph } = buildGenerationGraph(job({ controlNets: units }), {
      seed: 1,
      images: { controls: ['a.png', 'b.png'] },
      preprocessors,
    });
    const applies = nodes(graph, 'ControlNetApplyAdvanced');
    expect(applies).toHaveLength(2);
    const [[firstId, first], [secondId, second]] = applies as [[string, any], [string, any]];
    expect(target(graph, first.inputs.positive).inputs.text).toBe('水墨, 山, 月');
    expect(target(graph, first.inputs.negative).inputs.text).toBe('low quality');
    expect(first.inputs).toMatchObject({ strength: 0.8, start_percent: 0, end_percent: 1 });
    expect(target(graph, first.inputs.control_net).inputs.control_net_name).toBe('canny.pth');
    const canny = target(graph, first.inputs.image);
    expect(canny.class_type).toBe('Canny');
    expect(canny.inputs.low_threshold).toBeCloseTo(100 / 255, 2);
    expect(canny.inputs.high_threshold).toBeCloseTo(200 / 255, 2);
    expect(target(graph, canny.inputs.image).inputs.image).toBe('a.png');

    expect(second.inputs).toMatchObject({
      positive: [firstId, 0],
      negative: [firstId, 1],
      strength: 1,
      start_percent: 0.2,
      end_percent: 0.9,
    });
    // module none: the reference goes straight in.
    expect(target(graph, second.inputs.image)).toEqual({ class_type: 'LoadImage', inputs: { image: 'b.png' } });
    const [, sampler] = only(graph, 'KSampler');
    expect(sampler.inputs.positive).toEqual([secondId, 0]);
    expect(sampler.inputs.negative).toEqual([secondId, 1]);
  });

  it('builds upscale as LoadImage → ImageScaleBy (lanczos) → SaveImage', () => {
    const { graph, samplers } = buildGenerationGraph(job({ mode: 'upscale', upscaleFactor: 3 }), {
      seed: 5,
      images: { init: 'src.png' },
    });
    const [, scale] = only(graph, 'ImageScaleBy');
    expect(scale.inputs).toMatchObject({ upscale_method: 'lanczos', scale_by: 3 });
    expect(target(graph, scale.inputs.image).inputs.image).toBe('src.png');
    expect(target(graph, only(graph, 'SaveImage')[1].inputs.images).class_type).toBe('ImageScaleBy');
    expect(nodes(graph, 'KSampler')).toHaveLength(0);
    expect(samplers.size).toBe(0);
  });

  it('maps A1111 sampler names to sampler_name + scheduler and back', () => {
    expect(toComfySampler('Euler a')).toEqual({ samplerName: 'euler_ancestral', scheduler: 'normal' });
    expect(toComfySampler('Euler')).toEqual({ samplerName: 'euler', scheduler: 'normal' });
    expect(toComfySampler('DPM++ 2M Karras')).toEqual({ samplerName: 'dpmpp_2m', scheduler: 'karras' });
    expect(toComfySampler('DPM++ SDE Karras')).toEqual({ samplerName: 'dpmpp_sde', scheduler: 'karras' });
    expect(toComfySampler('DPM++ 2M SDE Exponential')).toEqual({
      samplerName: 'dpmpp_2m_sde',
      scheduler: 'exponential',
    });
    expect(toComfySampler('DPM++ 2M')).toEqual({ samplerName: 'dpmpp_2m', scheduler: 'karras' });
    expect(toComfySampler('DDIM')).toEqual({ samplerName: 'ddim', scheduler: 'ddim_uniform' });
    expect(toComfySampler('UniPC')).toEqual({ samplerName: 'uni_pc', scheduler: 'normal' });
    expect(toComfySampler('LCM')).toEqual({ samplerName: 'lcm', scheduler: 'normal' });
    expect(toComfySampler('res_multistep')).toEqual({ samplerName: 'res_multistep', scheduler: 'normal' });
    expect(fromComfySampler('euler_ancestral')).toBe('Euler a');
    expect(fromComfySampler('uni_pc')).toBe('UniPC');
    expect(fromComfySampler('res_multistep')).toBe('res_multistep');
    expect(samplerDisplayNames(['euler', 'dpmpp_2m', 'ipndm'], ['normal', 'karras'])).toEqual([
      'Euler',
      'DPM++ 2M',
      'DPM++ 2M Karras',
      'ipndm',
    ]);
    expect(samplerDisplayNames(['dpmpp_2m'], ['normal'])).toEqual(['DPM++ 2M']);
  });

  it('reads combos of both object_info forms and resolves aux preprocessors from their inputs', () => {
    expect(comboOptions([['a', 'b'], { default: 'a' }])).toEqual(['a', 'b']);
    expect(comboOptions(['COMBO', { options: ['x', 'y'] }])).toEqual(['x', 'y']);
    expect(comboOptions(['INT', { default: 1 }])).toEqual([]);
    const info = parseObjectInfo({
      LineArtPreprocessor: {
        input: {
          required: { image: ['IMAGE'] },
          optional: { coarse: [['disable', 'enable']], resolution: ['INT', { default: 512, min: 64, max: 16384 }] },
        },
        output: ['IMAGE'],
      },
      DWPreprocessor: { input: { required: { image: ['IMAGE'], pose_model: ['POSE_MODEL'] } }, output: ['IMAGE'] },
    });
    expect(resolvePreprocessor('lineart_realistic', info, { processorRes: 768 })).toEqual({
      module: 'lineart',
      classType: 'LineArtPreprocessor',
      inputs: { resolution: 768 },
      fields: ['processorRes', 'weight', 'guidanceStart', 'guidanceEnd'],
    });
    // A node needing a model link we cannot give is not offered.
    expect(resolvePreprocessor('openpose', info)).toBeNull();
    expect(resolvePreprocessor('canny', info)).toBeNull();
    expect(resolvePreprocessor('none', {})?.classType).toBeNull();
    expect(preprocessorOptions(info).map((o) => o.value)).toEqual(['none', 'lineart']);
  });

  it('decodes binary preview frames', () => {
    const frame = (type: number, format: number, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(type, 0);
      head.writeUInt32BE(format, 4);
      return Buffer.concat([head, body]);
    };
    expect(parsePreviewFrame(frame(1, 1, Buffer.from('jpg')))).toEqual({
      bytes: Buffer.from('jpg'),
      mime: 'image/jpeg',
    });
    expect(parsePreviewFrame(frame(1, 2, Buffer.from('png')))?.mime).toBe('image/png');
    const meta = Buffer.from(JSON.stringify({ image_type: 'image/webp', prompt_id: 'p1' }));
    expect(parsePreviewFrame(frame(4, meta.length, Buffer.concat([meta, Buffer.from('webp')])))).toEqual({
      bytes: Buffer.from('webp'),
      mime: 'image/webp',
      promptId: 'p1',
    });
    expect(parsePreviewFrame(frame(3, 0, Buffer.from('text')))).toBeNull();
    expect(parsePreviewFrame(Buffer.from([0, 0]))).toBeNull();
  });
});

describe('ComfyUI engine against the double', () => {
  it('runs txt2img end to end: events to our client only, progress, previews, parameters in the PNG', async () => {
    const double = await start({ requireToken: 'secret', previewMethod: 'auto' });
    const engine = engineFor(double, { token: 'secret' });
    // Another client on the same server must see none of our events.
    const bystander = new WebSocket(`${double.url.replace('http', 'ws')}/ws?clientId=bystander`, {
      headers: { authorization: 'Bearer secret' },
    });
    const seen: { type: string; binary: boolean }[] = [];
    bystander.on('message', (data, binary) =>
      seen.push({ type: binary ? 'binary' : JSON.parse(String(data)).type, binary }),
    );
    await once(bystander, 'open');

    const progress: EngineProgress[] = [];
    const result = await engine.run(job({ steps: 5 }), { onProgress: (p) => progress.push(p) });
    bystander.close();

    expect(engine.kind).toBe('comfyui');
    expect(result.interrupted).toBe(false);
    expect(result.seed).toBe(1234);
    expect(result.images).toHaveLength(1);
    const [image] = result.images;
    expect(image).toMatchObject({ seed: 1234, width: 64, height: 64, interrupted: false });
    const text = readPngText(image!.png).parameters!;
    expect(text).toBe(image!.infotext);
    expect(text).toContain('水墨, 山, 月');
    expect(text).toContain('Negative prompt: low quality');
    expect(text).toContain('Sampler: DPM++ 2M, Schedule type: Karras');
    expect(text).toContain('Seed: 1234');
    expect(text).toContain('Model: dreamshaper_8');

    const [recorded] = double.prompts;
    expect(only(recorded!.graph as ComfyGraph, 'CheckpointLoaderSimple')[1].inputs.ckpt_name).toBe(CHECKPOINT);
    expect(recorded!.clientId).toBeTruthy();
    const ours = double.sent.filter((m) => m.promptId === recorded!.promptId || m.type === 'preview');
    expect(ours.length).toBeGreaterThan(5);
    expect(ours.every((m) => m.clientId === recorded!.clientId)).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((m) => m.type === 'status' && !m.binary)).toBe(true);
    expect(double.requests.every((r) => r.authorization === 'Bearer secret')).toBe(true);
    expect(double.requests.some((r) => r.path === '/view')).toBe(true);

    expect(progress.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.step).toBeGreaterThanOrEqual(progress[i - 1]!.step);
      expect(progress[i]!.percent).toBeGreaterThanOrEqual(progress[i - 1]!.percent);
    }
    expect(progress.at(-1)).toMatchObject({ step: 5, totalSteps: 5, percent: 100 });
    const withPreview = progress.find((p) => p.preview);
    // As the real server's: 512-px JPEG frames whatever the picture's size.
    expect(withPreview?.previewMime).toBe('image/jpeg');
    expect(await sharp(withPreview!.preview!).metadata()).toMatchObject({ format: 'jpeg', width: 512 });
  });

  it('draws a seed for -1 and reports the one the KSampler used', async () => {
    const double = await start();
    const result = await engineFor(double).run(job({ seed: -1, steps: 2 }));
    const sampler = only(double.prompts[0]!.graph as ComfyGraph, 'KSampler')[1];
    expect(result.seed).toBeGreaterThanOrEqual(0);
    expect(sampler.inputs.seed).toBe(result.seed);
    expect(result.images[0]!.infotext).toContain(`Seed: ${result.seed}`);
  });

  it('reports seed + i per image of a sequential batch, the shared seed and Batch pos for a latent batch', async () => {
    const double = await start();
    const progress: EngineProgress[] = [];
    const sequential = await engineFor(double).run(job({ batchSize: 3, steps: 2 }), {
      onProgress: (p) => progress.push(p),
    });
    expect(sequential.images.map((i) => i.seed)).toEqual([1234, 1235, 1236]);
    expect(sequential.images[2]!.infotext).toContain('Seed: 1236');
    expect(sequential.images[2]!.infotext).toContain('Batch size: 3');
    // Different seeds paint differently (the double's colour follows the seed).
    expect(sequential.images[0]!.png.equals(sequential.images[1]!.png)).toBe(false);
    expect(new Set(progress.map((p) => p.imageIndex))).toEqual(new Set([0, 1, 2]));
    expect(progress.at(-1)).toMatchObject({ step: 6, totalSteps: 6, percent: 100 });

    const latent = await engineFor(double, { batchMode: 'latent' }).run(job({ batchSize: 2, steps: 2 }));
    expect(latent.images.map((i) => i.seed)).toEqual([1234, 1234]);
    expect(latent.images[1]!.infotext).toContain('Batch pos: 1');
    expect(only(double.prompts[1]!.graph as ComfyGraph, 'EmptyLatentImage')[1].inputs.batch_size).toBe(2);
  });

  it('converts a non-PNG output to PNG before writing the parameters', async () => {
    const double = await start({ outputFormat: 'jpeg' });
    const result = await engineFor(double).run(job({ steps: 1 }));
    const meta = await sharp(result.images[0]!.png).metadata();
    expect(meta.format).toBe('png');
    expect(readPngText(result.images[0]!.png).parameters).toContain('Seed: 1234');
  });

  it('uploads the init image before queueing img2img, and the mask for inpaint', async () => {
    const double = await start();
    const init = await png(96, 72);
    const mask = await png(96, 72, 255);
    const result = await engineFor(double).run(
      job({ mode: 'inpaint', initImage: init, mask, denoisingStrength: 0.6, width: 96, height: 72 }),
    );
    expect(result.images[0]).toMatchObject({ width: 96, height: 72 });
    expect(result.images[0]!.infotext).toContain('Denoising strength: 0.6');
    expect(double.uploads).toHaveLength(2);
    expect(double.uploads.every((u) => u.overwrite && u.type === 'input' && u.subfolder === 'huafang')).toBe(true);
    expect(double.uploads[0]!.bytes.equals(init)).toBe(true);
    const paths = double.requests.map((r) => r.path);
    expect(paths.indexOf('/upload/image')).toBeLessThan(paths.indexOf('/prompt'));
    const graph = double.prompts[0]!.graph as ComfyGraph;
    expect(only(graph, 'LoadImage')[1].inputs.image).toBe(`huafang/${double.uploads[0]!.name}`);
    expect(only(graph, 'LoadImageMask')[1].inputs.image).toBe(`huafang/${double.uploads[1]!.name}`);
    expect(only(graph, 'KSampler')[1].inputs.denoise).toBe(0.6);
  });

  it('runs a ControlNet chain with the canny preprocessor and the uploaded references', async () => {
    const double = await start();
    const reference = await png(64, 64);
    const result = await engineFor(double).run(
      job({
        controlNets: [
          { module: 'canny', model: 'control_v11p_sd15_canny.pth', image: reference, thresholdA: 50, thresholdB: 150 },
          { module: 'none', model: 'control_v11f1p_sd15_depth.pth', image: reference, weight: 0.5 },
        ],
      }),
    );
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.infotext).toContain('ControlNet 1: "Module: none');
    const graph = double.prompts[0]!.graph as ComfyGraph;
    expect(double.uploads).toHaveLength(2);
    const [, canny] = only(graph, 'Canny');
    expect(canny.inputs.low_threshold).toBeCloseTo(50 / 255, 2);
    expect(nodes(graph, 'ControlNetLoader').map(([, n]) => n.inputs.control_net_name)).toEqual([
      'control_v11p_sd15_canny.pth',
      'control_v11f1p_sd15_depth.pth',
    ]);
    const [, sampler] = only(graph, 'KSampler');
    const last = target(graph, sampler.inputs.positive);
    expect(last.class_type).toBe('ControlNetApplyAdvanced');
    expect(last.inputs.strength).toBe(0.5);
    expect(target(graph, last.inputs.positive).class_type).toBe('ControlNetApplyAdvanced');
  });

  it('refuses a preprocessor the server lacks, or an inpaint without mask, before queueing anything', async () => {
    const double = await start();
    const error = await engineError(
      engineFor(double).run(
        job({ controlNets: [{ module: 'openpose', model: 'control_v11p_sd15_canny.pth', image: await png(8, 8) }] }),
      ),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('该后端不支持预处理器：openpose');
    const noMask = await engineError(engineFor(double).run(job({ mode: 'inpaint', initImage: await png(8, 8) })));
    expect(noMask).toMatchObject({ message: '局部重绘需要一张蒙版', retryable: false });
    expect(double.prompts).toHaveLength(0);
  });

  it('upscales with ImageScaleBy and records the postprocess in the parameters', async () => {
    const double = await start();
    const result = await engineFor(double).run(
      job({ mode: 'upscale', initImage: await png(40, 30), upscaleFactor: 2 }),
    );
    expect(result.images[0]).toMatchObject({ width: 80, height: 60 });
    expect(result.images[0]!.infotext).toContain('Postprocess upscale by: 2');
    expect(result.images[0]!.infotext).toContain('Size: 80x60');
  });

  it('interrupts a running prompt and keeps the images already finished', async () => {
    // Steps long enough that the second image cannot finish while the adapter checks /queue and sends /interrupt
    // on a loaded machine (at 5 ms a step it sometimes did, and was kept).
    const double = await start({ stepDelayMs: 50, interruptDelayMs: 20 });
    const controller = new AbortController();
    // The server paints the batch in an order of its own: stop once the second image has begun.
    const begun: number[] = [];
    const result = await engineFor(double).run(job({ batchSize: 3, steps: 4 }), {
      signal: controller.signal,
      onProgress: (p) => {
        if (!begun.includes(p.imageIndex)) begun.push(p.imageIndex);
        if (begun.length >= 2) controller.abort();
      },
    });
    const promptId = double.prompts[0]!.promptId;
    expect(result.interrupted).toBe(true);
    const finished = 1234 + begun[0]!;
    expect(result.images.map((i) => i.seed)).toEqual([finished]);
    expect(readPngText(result.images[0]!.png).parameters).toContain(`Seed: ${finished}`);
    expect(double.interrupts).toEqual([promptId]);
    expect(double.deletes).toEqual([]);
    expect(double.sent.some((m) => m.type === 'execution_interrupted' && m.promptId === promptId)).toBe(true);
  });

  it('cancels a pending prompt by taking it off the queue', async () => {
    const double = await start();
    double.pause();
    const controller = new AbortController();
    const queued = double.next('queued');
    const running = engineFor(double).run(job(), { signal: controller.signal });
    const promptId = await queued;
    expect(double.queue().pending).toEqual([promptId]);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ images: [], interrupted: true, seed: 1234 });
    expect(double.deletes).toEqual([promptId]);
    expect(double.queue().pending).toEqual([]);
    expect(double.interrupts).toEqual([]);
  });

  it('turns a 400 with node_errors into a non-retryable Chinese refusal', async () => {
    const double = await start();
    const engine = engineFor(double);
    const unknownModel = await engineError(engine.run(job({ checkpoint: 'missing.safetensors' })));
    expect(unknownModel.retryable).toBe(false);
    expect(unknownModel.message).toMatch(/^推理后端拒绝了任务：/);
    expect(unknownModel.message).toContain('CheckpointLoaderSimple');
    expect(unknownModel.message).toContain('Value not in list');

    double.rejectNextPrompt();
    const rejected = await engineError(engine.run(job()));
    expect(rejected.retryable).toBe(false);
    expect(rejected.message).toContain('Prompt outputs failed validation');
  });

  it('validates graphs as ComfyUI does (unknown class, missing input, no output)', async () => {
    const double = await start();
    const post = async (prompt: unknown) => {
      const res = await fetch(`${double.url}/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, client_id: 'x' }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const unknown = await post({ '1': { class_type: 'NoSuchNode', inputs: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('NoSuchNode does not exist');
    const missing = await post({
      '1': { class_type: 'LoadImage', inputs: { image: 'nope.png' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.node_errors['2'].errors[0].type).toBe('required_input_missing');
    expect(missing.body.node_errors['1'].errors[0].details).toContain('Invalid image file');
    const noOutput = await post({ '1': { class_type: 'ImageInvert', inputs: {} } });
    expect(noOutput.body.error.type).toBe('prompt_no_outputs');
  });

  it('fails non-retryably on execution_error, with the exception message and no traceback', async () => {
    const double = await start();
    double.failNextExecution();
    const error = await engineError(engineFor(double).run(job()));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('推理后端执行任务失败（KSampler）：CUDA out of memory. Tried to allocate 2.00 GiB');
  });

  it('falls back to polling /history when the socket drops mid-run', async () => {
    const double = await start({ stepDelayMs: 5 });
    double.dropSocketDuringNextRun(2);
    const progress: EngineProgress[] = [];
    const result = await engineFor(double).run(job({ steps: 8 }), { onProgress: (p) => progress.push(p) });
    expect(result.interrupted).toBe(false);
    expect(result.images).toHaveLength(1);
    expect(readPngText(result.images[0]!.png).parameters).toContain('Seed: 1234');
    expect(double.requests.filter((r) => r.path.startsWith('/history/')).length).toBeGreaterThan(1);
    expect(progress.filter((p) => p.percent < 100).every((p) => p.step <= 2)).toBe(true);
  });

  it('follows the run by polling /history when the socket cannot be opened', async () => {
    const double = await start();
    double.refuseSockets();
    const progress: EngineProgress[] = [];
    const result = await engineFor(double).run(job({ steps: 3 }), { onProgress: (p) => progress.push(p) });
    expect(result.images.map((i) => i.seed)).toEqual([1234]);
    expect(double.sent.filter((m) => m.promptId === double.prompts[0]!.promptId)).toEqual([]);
    expect(progress).toEqual([{ step: 3, totalSteps: 3, percent: 100, etaSeconds: 0, imageIndex: 0 }]);
  });

  it('reports an execution_error found by polling after the socket dropped', async () => {
    const double = await start({ stepDelayMs: 5 });
    double.dropSocketDuringNextRun(1);
    double.failNextExecution('boom', 'VAEDecode');
    const error = await engineError(engineFor(double).run(job({ steps: 4 })));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('推理后端执行任务失败（VAEDecode）：boom');
  });

  it('marks 5xx, refused connections and timeouts as retryable', async () => {
    const double = await start();
    double.failRequests('/prompt', 500);
    const serverError = await engineError(engineFor(double).run(job()));
    expect(serverError.retryable).toBe(true);
    expect(serverError.message).toBe('推理后端暂时不可用：「ComfyUI」服务器错误（HTTP 500）');

    const refused = await engineError(new ComfyUiEngine({ baseUrl: await refusedUrl(), label: '机房 A' }).run(job()));
    expect(refused.retryable).toBe(true);
    expect(refused.message).toBe('推理后端暂时不可用：「机房 A」连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）');

    double.hangRequests('/prompt');
    const timeout = await engineError(engineFor(double, { requestTimeoutMs: 150 }).run(job()));
    expect(timeout.retryable).toBe(true);
    expect(timeout.message).toContain('请求超时');
  });

  it('gives up on a job past its time limit, retryably, and takes it off the queue', async () => {
    const double = await start();
    double.pause();
    const error = await engineError(engineFor(double, { jobTimeoutMs: 300 }).run(job()));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('任务超时');
    expect(double.deletes).toEqual([double.prompts[0]!.promptId]);
    expect(double.queue().pending).toEqual([]);
  });

  it('lists models, samplers and ControlNet options from /object_info', async () => {
    const double = await start({ auxPreprocessors: true });
    const engine = engineFor(double);
    expect(await engine.listModels()).toEqual([
      { title: 'sd15/dreamshaper_8.safetensors', name: 'dreamshaper_8' },
      { title: 'sdxl/juggernautXL_v9.safetensors', name: 'juggernautXL_v9' },
    ]);
    const samplers = await engine.listSamplers();
    expect(samplers).toEqual(expect.arrayContaining(['Euler a', 'Euler', 'DPM++ 2M Karras', 'DDIM', 'UniPC']));
    expect(samplers).toContain('res_multistep');
    expect(await engine.listControlNetModels()).toEqual([
      'control_v11p_sd15_canny.pth',
      'control_v11f1p_sd15_depth.pth',
    ]);
    const modules = await engine.listControlNetModules();
    expect(modules.map((m) => m.value)).toEqual(['none', 'canny', 'depth', 'lineart', 'invert']);
    const canny = modules.find((m) => m.value === 'canny')!;
    expect(canny).toMatchObject({ label: 'Canny 边缘', moduleName: 'canny' });
    expect(JSON.parse(canny.fromConfig!)).toEqual([
      'thresholdA',
      'thresholdB',
      'weight',
      'guidanceStart',
      'guidanceEnd',
    ]);
    expect(JSON.parse(modules.find((m) => m.value === 'depth')!.fromConfig!)).toContain('processorRes');
    // One /object_info fetch serves the lists for a while.
    expect(double.requests.filter((r) => r.path === '/object_info')).toHaveLength(1);

    const core = await start();
    const coreModules = await engineFor(core).listControlNetModules();
    expect(coreModules.map((m) => m.value)).toEqual(['none', 'canny', 'invert']);
  });

  it('preprocesses through a small graph, and refuses modules it cannot run', async () => {
    const double = await start({ auxPreprocessors: true });
    const engine = engineFor(double);
    const map = await engine.preprocess('canny', await png(48, 32), { thresholdA: 80, thresholdB: 160 });
    expect(await sharp(map).metadata()).toMatchObject({ format: 'png', width: 48, height: 32 });
    const graph = double.prompts[0]!.graph as ComfyGraph;
    expect(Object.values(graph).map((n) => n.class_type)).toEqual(['LoadImage', 'Canny', 'PreviewImage']);

    await engine.preprocess('lineart', await png(48, 32), { processorRes: 256 });
    expect(only(double.prompts[1]!.graph as ComfyGraph, 'LineArtPreprocessor')[1].inputs.resolution).toBe(256);

    const passthrough = await engine.preprocess('none', await png(16, 16));
    expect((await sharp(passthrough).metadata()).width).toBe(16);
    expect(double.prompts).toHaveLength(2);

    const error = await engineError(engine.preprocess('openpose', await png(8, 8)));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('该后端不支持预处理器：openpose');
  });

  it('reports health: ok, busy while a prompt runs, down when unreachable or refused by the proxy', async () => {
    const double = await start({ stepDelayMs: 10 });
    const engine = engineFor(double);
    expect(await engine.health()).toEqual({ ok: true, busy: false, message: '正常' });

    const started = double.next('started');
    const running = engine.run(job({ steps: 10 }));
    await started;
    const busy = await engine.health();
    expect(busy).toMatchObject({ ok: true, busy: true });
    expect(busy.message).toContain('正常');
    await running;

    const down = await new ComfyUiEngine({ baseUrl: await refusedUrl() }).health();
    expect(down).toEqual({
      ok: false,
      busy: false,
      message: '无法连接：连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）',
    });

    const guarded = await start({ requireToken: 'secret' });
    expect((await engineFor(guarded).health()).message).toBe('无法连接：鉴权失败（HTTP 401）');
  });
});
