import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineJob, EngineProgress } from '../../../src/engines/engine.js';
import { readPngText } from '../../../src/engines/png-text.js';
import { fieldsFromSliders } from '../../../src/engines/sdwebui/sdwebui-catalog.js';
import { SdWebUiEngine, type SdWebUiEngineOptions } from '../../../src/engines/sdwebui/sdwebui-engine.js';
import { type A1111Double, type A1111DoubleOptions, startA1111Double } from '../../doubles/a1111-double.js';
import { engineError, engineJob } from './engine-test-kit.js';

const MODEL = 'anything-v5.safetensors [7f96a1a9ca]';
const DEFAULT_MODEL = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
const UNIT_FIELDS = ['weight', 'guidanceStart', 'guidanceEnd', 'controlMode'];

const job = (overrides: Partial<EngineJob> = {}) =>
  engineJob({
    prompt: 'masterpiece, 山水, <lora:ink:0.8>',
    negativePrompt: 'lowres',
    checkpoint: MODEL,
    steps: 6,
    ...overrides,
  });

const doubles: A1111Double[] = [];
afterEach(async () => {
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function setup(options: A1111DoubleOptions = {}, engineOptions: Partial<SdWebUiEngineOptions> = {}) {
  const double = await startA1111Double({ stepDelayMs: 2, ...options });
  doubles.push(double);
  const engine = new SdWebUiEngine({
    baseUrl: double.url,
    label: '测试后端',
    progressIntervalMs: 15,
    ...engineOptions,
  });
  return { double, engine };
}

const solidPng = (r: number, g: number, b: number, size = 64) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

async function pixel(png: Buffer, x = 32, y = 32): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const p = (y * info.width + x) * info.channels;
  return [data[p]!, data[p + 1]!, data[p + 2]!];
}

describe('SdWebUiEngine.run', () => {
  it('txt2img switches the model per request through override_settings, never POST /options', async () => {
    const { double, engine } = await setup();
    const result = await engine.run(job());

    expect(result.interrupted).toBe(false);
    expect(result.seed).toBe(1234);
    expect(result.images).toHaveLength(1);
    const [sent] = double.requestsTo('/sdapi/v1/txt2img', 'POST');
    expect(sent!.body).toMatchObject({
      prompt: 'masterpiece, 山水, <lora:ink:0.8>',
      negative_prompt: 'lowres',
      seed: 1234,
      sampler_name: 'DPM++ 2M Karras',
      steps: 6,
      cfg_scale: 7,
      width: 64,
      height: 64,
      batch_size: 1,
      n_iter: 1,
      override_settings: { sd_model_checkpoint: MODEL },
      override_settings_restore_afterwards: true,
      send_images: true,
      save_images: false,
    });
    expect(sent!.body.force_task_id).toMatch(/^task\(.+\)$/);
    expect(sent!.body.alwayson_scripts).toBeUndefined();
    expect(double.jobs[0]!.model).toBe(MODEL);
    // Restored afterwards, and the global setting was never touched.
    expect(double.loadedModel).toBe(DEFAULT_MODEL);
    expect(double.requestsTo('/sdapi/v1/options', 'POST')).toHaveLength(0);
  });

  it('a batch of 2 takes its seeds from all_seeds, each PNG carrying the parameters text', async () => {
    const { engine } = await setup();
    const result = await engine.run(job({ batchSize: 2, seed: 777 }));

    expect(result.images.map((image) => image.seed)).toEqual([777, 778]);
    for (const image of result.images) {
      expect(image.width).toBe(64);
      expect(image.height).toBe(64);
      expect(image.interrupted).toBe(false);
      const parameters = readPngText(image.png).parameters;
      expect(parameters).toBe(image.infotext);
      expect(parameters).toContain(`Seed: ${image.seed}`);
      expect(parameters).toContain('Negative prompt: lowres');
      expect(parameters).toContain('Model: anything-v5');
    }
    // Different seeds paint different pictures.
    expect(await pixel(result.images[0]!.png)).not.toEqual(await pixel(result.images[1]!.png));
  });

  it('reports the seed the server drew for -1', async () => {
    const { double, engine } = await setup();
    const result = await engine.run(job({ seed: -1, batchSize: 2 }));
    const drawn = double.jobs[0]!.seeds[0]!;
    expect(result.seed).toBe(drawn);
    expect(result.images.map((image) => image.seed)).toEqual([drawn, drawn + 1]);
  });

  it('writes infotexts[i] into PNGs the server sent without PNG info', async () => {
    const { double, engine } = await setup();
    double.pngInfo = false;
    const result = await engine.run(job({ batchSize: 2 }));
    for (const image of result.images) {
      expect(readPngText(image.png).parameters).toBe(image.infotext);
      expect(image.infotext).toContain(`Seed: ${image.seed}`);
    }
  });

  it('maps ControlNet units into alwayson_scripts and drops the detected maps', async () => {
    const { double, engine } = await setup();
    const reference = await solidPng(250, 250, 250);
    const result = await engine.run(
      job({
        controlNets: [
          {
            module: 'canny',
            model: 'control_v11p_sd15_canny [d14c016b]',
            image: reference,
            weight: 0.8,
            guidanceStart: 0.1,
            guidanceEnd: 0.9,
            processorRes: 512,
            thresholdA: 100,
            thresholdB: 200,
            controlMode: 2,
          },
          { module: 'depth_midas', model: 'control_v11f1p_sd15_depth [cfd03158]', image: reference },
        ],
      }),
    );

    const [sent] = double.requestsTo('/sdapi/v1/txt2img');
    expect(sent!.body.alwayson_scripts).toEqual({
      controlnet: {
        args: [
          {
            enabled: true,
            module: 'canny',
            model: 'control_v11p_sd15_canny [d14c016b]',
            weight: 0.8,
            image: reference.toString('base64'),
            resize_mode: 'Crop and Resize',
            processor_res: 512,
            threshold_a: 100,
            threshold_b: 200,
            guidance_start: 0.1,
            guidance_end: 0.9,
            control_mode: 'ControlNet is more important',
            pixel_perfect: false,
          },
          {
            enabled: true,
            module: 'depth_midas',
            model: 'control_v11f1p_sd15_depth [cfd03158]',
            weight: 1,
            image: reference.toString('base64'),
            resize_mode: 'Crop and Resize',
            processor_res: -1,
            threshold_a: -1,
            threshold_b: -1,
            guidance_start: 0,
            guidance_end: 1,
            control_mode: 'Balanced',
            pixel_perfect: false,
          },
        ],
      },
    });
    // The server answered 1 picture + 2 detected maps; only the picture comes back.
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.infotext).toContain('ControlNet 0: "Module: canny');
    expect(readPngText(result.images[0]!.png).parameters).toContain('Seed: 1234');
  });

  it('img2img sends the init image and denoising strength; inpaint adds the mask', async () => {
    const { double, engine } = await setup();
    const init = await solidPng(255, 0, 0);
    const result = await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 0.5 }));

    const [sent] = double.requestsTo('/sdapi/v1/img2img', 'POST');
    expect(sent!.body).toMatchObject({
      init_images: [init.toString('base64')],
      denoising_strength: 0.5,
      override_settings: { sd_model_checkpoint: MODEL },
    });
    expect(sent!.body.mask).toBeUndefined();
    expect(double.requestsTo('/sdapi/v1/txt2img')).toHaveLength(0);
    // Half way between the red source and the seed's colour.
    const [red] = await pixel(result.images[0]!.png);
    expect(red).toBeGreaterThan(100);
    expect(result.images[0]!.infotext).toContain('Denoising strength: 0.5');

    const mask = await solidPng(255, 255, 255);
    await engine.run(job({ mode: 'inpaint', initImage: init, mask, denoisingStrength: 0.75 }));
    const inpaint = double.requestsTo('/sdapi/v1/img2img', 'POST')[1]!;
    expect(inpaint.body).toMatchObject({
      mask: mask.toString('base64'),
      inpainting_fill: 1,
      inpainting_mask_invert: 0,
    });

    await expect(engine.run(job({ mode: 'img2img' }))).rejects.toMatchObject({ retryable: false });
  });

  it('upscale runs through extras with the factor, keeping the source parameters', async () => {
    const { double, engine } = await setup();
    const first = await engine.run(job({ seed: 4242 }));
    const source = first.images[0]!.png;
    const result = await engine.run(job({ mode: 'upscale', initImage: source, upscaleFactor: 2 }));

    const [sent] = double.requestsTo('/sdapi/v1/extra-single-image', 'POST');
    expect(sent!.body).toMatchObject({ upscaling_resize: 2, upscaler_1: 'R-ESRGAN 4x+', resize_mode: 0 });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ width: 128, height: 128, seed: 4242, interrupted: false });
    expect(readPngText(result.images[0]!.png).parameters).toContain('Seed: 4242');
  });

  it('per-task progress is monotonic and carries live previews', async () => {
    const { double, engine } = await setup({ stepDelayMs: 8 });
    const events: EngineProgress[] = [];
    const result = await engine.run(job({ steps: 24, batchSize: 2 }), { onProgress: (p) => events.push(p) });

    expect(result.images).toHaveLength(2);
    expect(events.length).toBeGreaterThan(3);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.percent).toBeGreaterThanOrEqual(events[i - 1]!.percent);
      expect(events[i]!.step).toBeGreaterThanOrEqual(events[i - 1]!.step);
    }
    expect(events.every((e) => e.totalSteps === 48)).toBe(true);
    expect(events.at(-1)).toMatchObject({ percent: 100, step: 48, imageIndex: 1 });
    expect(events.some((e) => e.etaSeconds > 0)).toBe(true);
    const withPreview = events.filter((e) => e.preview);
    expect(withPreview.length).toBeGreaterThan(0);
    expect(withPreview[0]!.previewMime).toBe('image/png');
    expect((await sharp(withPreview[0]!.preview!).metadata()).width).toBe(64);

    const taskId = double.requestsTo('/sdapi/v1/txt2img')[0]!.body.force_task_id;
    const polls = double.requestsTo('/internal/progress');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((p) => p.body.id_task === taskId && p.body.live_preview === true)).toBe(true);
    expect(double.requestsTo('/sdapi/v1/progress')).toHaveLength(0);
  });

  it('falls back to the global progress when /internal/progress is missing', async () => {
    const { double, engine } = await setup({ stepDelayMs: 8 });
    double.internalProgress = false;
    const events: EngineProgress[] = [];
    await engine.run(job({ steps: 24 }), { onProgress: (p) => events.push(p) });

    expect(double.requestsTo('/internal/progress')).toHaveLength(1);
    const global = double.requestsTo('/sdapi/v1/progress');
    expect(global.length).toBeGreaterThan(0);
    expect(global[0]!.query.skip_current_image).toBe('false');
    expect(events.some((e) => e.percent > 0 && e.percent < 100)).toBe(true);
    for (let i = 1; i < events.length; i++) expect(events[i]!.percent).toBeGreaterThanOrEqual(events[i - 1]!.percent);
    expect(events.some((e) => e.preview && e.previewMime === 'image/png')).toBe(true);

    // The missing route is remembered: the next job goes straight to the global progress.
    await engine.run(job({ steps: 6 }), { onProgress: () => {} });
    expect(double.requestsTo('/internal/progress')).toHaveLength(1);
  });
});

describe('SdWebUiEngine abort', () => {
  it('interrupts once and returns the images painted so far', async () => {
    const { double, engine } = await setup({ stepDelayMs: 10 });
    const controller = new AbortController();
    const result = await engine.run(job({ steps: 40, batchSize: 2 }), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.percent >= 20) controller.abort();
      },
    });

    expect(double.interruptCount).toBe(1);
    expect(double.requestsTo('/sdapi/v1/interrupt', 'POST')).toHaveLength(1);
    expect(double.jobs[0]!.interrupted).toBe(true);
    expect(result.interrupted).toBe(true);
    // One sampling pass paints the whole batch: both images hold the canvas of that moment.
    expect(result.images).toHaveLength(2);
    expect(result.images.every((image) => image.interrupted)).toBe(true);
    expect(result.images.map((image) => image.seed)).toEqual([1234, 1235]);
    expect(readPngText(result.images[1]!.png).parameters).toContain('Seed: 1235');
  });

  it('interrupts without a progress listener too', async () => {
    const { double, engine } = await setup({ stepDelayMs: 10 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 120);
    const started = Date.now();
    const result = await engine.run(job({ steps: 100 }), { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(900);
    expect(result.interrupted).toBe(true);
    expect(result.images).toHaveLength(1);
    expect(double.interruptCount).toBe(1);
  });

  it('returns nothing when aborted before the request was sent', async () => {
    const { double, engine } = await setup();
    const controller = new AbortController();
    controller.abort();
    const result = await engine.run(job({ seed: 99 }), { signal: controller.signal });
    expect(result).toEqual({ images: [], interrupted: true, seed: 99 });
    expect(double.requestsTo('/sdapi/v1/txt2img')).toHaveLength(0);
    expect(double.interruptCount).toBe(0);
  });

  it('gives up on a server that stops answering once aborted, instead of waiting for the request timeout', async () => {
    const { double, engine } = await setup({}, { requestTimeoutMs: 10 * 60_000, abortAnswerMs: 100 });
    double.failNext('hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await engine.run(job({ seed: 7 }), { signal: controller.signal });
    expect(result).toEqual({ images: [], interrupted: true, seed: 7 });
    expect(double.requestsTo('/sdapi/v1/txt2img')).toHaveLength(1);
  });

  it("does not interrupt another client's job while ours waits in the server's queue", async () => {
    const { double, engine } = await setup({ stepDelayMs: 8 });
    const other = new SdWebUiEngine({ baseUrl: double.url, progressIntervalMs: 15 });
    let otherStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      otherStarted = resolve;
    });
    const theirs = other.run(job({ steps: 25, seed: 1 }), { onProgress: () => otherStarted() });
    await started;

    const controller = new AbortController();
    const ours = engine.run(job({ steps: 40, seed: 2 }), { signal: controller.signal });
    setTimeout(() => controller.abort(), 40);
    const [theirResult, ourResult] = await Promise.all([theirs, ours]);

    expect(theirResult.interrupted).toBe(false);
    expect(double.jobs[0]).toMatchObject({ seeds: [1], interrupted: false });
    // Ours was interrupted once it became the running job.
    expect(double.jobs[1]).toMatchObject({ seeds: [2], interrupted: true });
    expect(double.interruptCount).toBe(1);
    expect(ourResult.interrupted).toBe(true);
  });
});

describe('SdWebUiEngine lists', () => {
  it('lists models, samplers and ControlNet models', async () => {
    const { engine } = await setup();
    expect(await engine.listModels()).toContainEqual({ title: MODEL, name: 'anything-v5' });
    const samplers = await engine.listSamplers();
    expect(samplers).toContain('DPM++ 2M');
    expect(samplers).toContain('Euler a');
    expect(await engine.listControlNetModels()).toContain('control_v11p_sd15_canny [d14c016b]');
  });

  it('turns module_detail sliders into fromConfig', async () => {
    const { double, engine } = await setup();
    const modules = await engine.listControlNetModules();
    expect(double.requestsTo('/controlnet/module_list')[0]!.query).toEqual({ alias_names: 'false' });
    const fields = (name: string) => JSON.parse(modules.find((m) => m.value === name)!.fromConfig!);

    expect(modules.find((m) => m.value === 'canny')).toMatchObject({ label: 'canny', moduleName: 'canny' });
    expect(fields('canny')).toEqual(['processorRes', 'thresholdA', 'thresholdB', ...UNIT_FIELDS]);
    expect(fields('none')).toEqual(UNIT_FIELDS);
    expect(fields('depth_midas')).toEqual(['processorRes', ...UNIT_FIELDS]);
    expect(fields('tile_resample')).toEqual(['thresholdA', ...UNIT_FIELDS]);
    // Model-free modules are still offered.
    expect(fields('reference_only')).toEqual(['thresholdA', ...UNIT_FIELDS]);
  });

  it('gives every Forge module the default fields (Forge has no module_detail)', async () => {
    const { double, engine } = await setup({ flavour: 'forge' });
    const modules = await engine.listControlNetModules();
    expect(modules.length).toBeGreaterThan(3);
    for (const module of modules) {
      expect(JSON.parse(module.fromConfig!)).toEqual(['processorRes', ...UNIT_FIELDS]);
    }
    // The double really is Forge-flavoured.
    const options = await fetch(`${double.url}/sdapi/v1/options`).then((r) => r.json());
    expect(options.forge_preset).toBeDefined();
  });

  it('reads the legacy slider table with hidden slots', () => {
    expect(fieldsFromSliders([null, { name: 'Down Sampling Rate' }])).toEqual(['thresholdA', ...UNIT_FIELDS]);
    expect(fieldsFromSliders([{ name: 'Preprocessor Resolution' }, null, { name: 'Threshold' }])).toEqual([
      'processorRes',
      'thresholdB',
      ...UNIT_FIELDS,
    ]);
    expect(fieldsFromSliders([])).toEqual(UNIT_FIELDS);
  });
});

describe('SdWebUiEngine.preprocess', () => {
  it('runs /controlnet/detect and returns the PNG map', async () => {
    const { double, engine } = await setup();
    const image = await solidPng(200, 100, 50);
    const map = await engine.preprocess('canny', image, { processorRes: 128 });
    expect((await sharp(map).metadata()).format).toBe('png');
    const [sent] = double.requestsTo('/controlnet/detect', 'POST');
    expect(sent!.body).toEqual({
      controlnet_module: 'canny',
      controlnet_input_images: [image.toString('base64')],
      controlnet_processor_res: 128,
    });
  });

  it('turns a 422 into a non-retryable Chinese error', async () => {
    const { engine } = await setup();
    const error = await engineError(engine.preprocess('no_such_module', await solidPng(0, 0, 0)));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('预处理器不存在：no_such_module');
  });
});

describe('SdWebUiEngine auth and failures', () => {
  const auth = { username: 'painter', password: 's3cret:with-colon' };

  it('sends HTTP Basic credentials', async () => {
    const { double } = await setup({ auth });
    const engine = new SdWebUiEngine({ baseUrl: double.url, ...auth, progressIntervalMs: 15 });
    expect(await engine.listModels()).toHaveLength(3);
    const result = await engine.run(job(), { onProgress: () => {} });
    expect(result.images).toHaveLength(1);
    const expected = `Basic ${Buffer.from('painter:s3cret:with-colon').toString('base64')}`;
    expect(double.requestsTo('/sdapi/v1/txt2img')[0]!.authorization).toBe(expected);
    expect(await engine.health()).toMatchObject({ ok: true });
  });

  it('reports a 401 as a non-retryable authentication failure', async () => {
    const { double } = await setup({ auth });
    const engine = new SdWebUiEngine({ baseUrl: double.url, username: 'painter', password: 'wrong' });
    const error = await engineError(engine.run(job()));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('后端认证失败，请检查用户名和密码');
    const anonymous = new SdWebUiEngine({ baseUrl: double.url });
    expect((await engineError(anonymous.listModels())).message).toBe('后端认证失败，请检查用户名和密码');
    expect(await engine.health()).toEqual({ ok: false, busy: false, message: '认证失败，请检查用户名和密码' });
  });

  it('reports a 500 as retryable', async () => {
    const { double, engine } = await setup();
    double.failNext('error');
    const error = await engineError(engine.run(job()));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^推理后端暂时不可用：「测试后端」出错（HTTP 500：CUDA out of memory/);
    expect(error.stack).toBeDefined();
    expect(error.message).not.toContain('\n');
  });

  it('reports a refused job (4xx) as non-retryable with the server detail', async () => {
    const { engine } = await setup();
    const error = await engineError(engine.run(job({ sampler: 'No Such Sampler' })));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('推理后端拒绝了任务：Sampler not found');
  });

  it('reports a timeout as retryable', async () => {
    const { double, engine } = await setup({}, { requestTimeoutMs: 200 });
    double.failNext('hang');
    const started = Date.now();
    const error = await engineError(engine.run(job()));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('推理后端暂时不可用：「测试后端」0.2 秒内没有响应');
  });

  it('reports a dropped connection as retryable', async () => {
    const { double, engine } = await setup();
    double.failNext('reset');
    const error = await engineError(engine.run(job()));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('推理后端暂时不可用：无法连接「测试后端」');
  });

  it('reports a refused connection as retryable', async () => {
    const { double, engine } = await setup();
    await double.close();
    const error = await engineError(engine.run(job()));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      '推理后端暂时不可用：无法连接「测试后端」：连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）',
    );
    await expect(engine.listModels()).rejects.toMatchObject({ retryable: true });
  });
});

describe('SdWebUiEngine.health', () => {
  it('is ok when idle, busy while a job runs, and down when unreachable', async () => {
    const { double, engine } = await setup({ stepDelayMs: 8 });
    expect(await engine.health()).toEqual({ ok: true, busy: false, message: '正常' });

    let running!: () => void;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const work = engine.run(job({ steps: 30 }), { onProgress: () => running() });
    await started;
    expect(await new SdWebUiEngine({ baseUrl: double.url }).health()).toMatchObject({ ok: true, busy: true });
    await work;

    await double.close();
    const down = await engine.health();
    expect(down).toEqual({
      ok: false,
      busy: false,
      message: '无法连接：连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）',
    });
    const nowhere = new SdWebUiEngine({ baseUrl: 'http://no-such-host.invalid:7860' });
    expect((await nowhere.health()).message).toMatch(/^无法连接：/);
  });

  it('names the backend by its host when no label is given', () => {
    expect(new SdWebUiEngine({ baseUrl: 'http://10.0.0.5:7860/' }).label).toBe(
      'AUTOMATIC1111 / Forge（10.0.0.5:7860）',
    );
    expect(new SdWebUiEngine({ baseUrl: 'http://x', label: '一号机' }).kind).toBe('sdwebui');
  });
});
