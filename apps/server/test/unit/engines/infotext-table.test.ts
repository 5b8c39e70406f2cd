import { parseInfotext, pngInfoFromParameters, pngInfoSchema, readPngInfo } from '@huafang/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../../../src/engines/builtin/builtin-engine.js';
import { ComfyUiEngine } from '../../../src/engines/comfyui/comfyui-engine.js';
import type { EngineJob, EngineResult, InferenceEngine } from '../../../src/engines/engine.js';
import { formatInfotext, nameHash } from '../../../src/engines/infotext.js';
import { readPngText } from '../../../src/engines/png-text.js';
import { SdWebUiEngine } from '../../../src/engines/sdwebui/sdwebui-engine.js';
import { type A1111Double, startA1111Double } from '../../doubles/a1111-double.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../../doubles/comfyui-double.js';
import { engineJob } from './engine-test-kit.js';

/**
 * PNG info, written: for each engine and mode, the `parameters` text of every picture read back field by field with
 * AUTOMATIC1111's parse rules (parseInfotext follows its parse_generation_parameters) and by /draw's reader.
 */

type Mode = 'txt2img' | 'img2img' | 'inpaint' | 'ControlNet' | 'upscale' | 'LoRA' | 'batch';
const MODES: Mode[] = ['txt2img', 'img2img', 'inpaint', 'ControlNet', 'upscale', 'LoRA', 'batch'];

type Setup = {
  engine: InferenceEngine;
  checkpoint: string;
  /** `Model` and `Model hash` the engine writes for the checkpoint. */
  model: string;
  modelHash: string | undefined;
  controlNetModel: string;
  /** A LoRA the engine has (the built-in catalog's, a file the double lists). */
  lora: string;
  /** Pictures of an A1111 server carry A1111's own text (no `Schedule type` override of ours, its own ControlNet). */
  a1111: boolean;
};

let a1111: A1111Double;
let comfy: ComfyUiDouble;
const builtin = new BuiltinEngine({ previewEvery: 100 });
const setups: Record<string, () => Setup> = {
  builtin: () => ({
    engine: builtin,
    checkpoint: 'builtin-ink',
    model: 'builtin-ink',
    modelHash: nameHash('builtin-ink'),
    controlNetModel: 'control_v11p_sd15_canny',
    lora: 'hf_ink_wash',
    a1111: false,
  }),
  sdwebui: () => ({
    engine: new SdWebUiEngine({ baseUrl: a1111.url, label: '测试后端', progressIntervalMs: 15 }),
    checkpoint: 'anything-v5.safetensors [7f96a1a9ca]',
    model: 'anything-v5',
    modelHash: '7f96a1a9ca',
    controlNetModel: 'control_v11p_sd15_canny [d14c016b]',
    lora: 'ink_style',
    a1111: true,
  }),
  comfyui: () => ({
    engine: new ComfyUiEngine({ baseUrl: comfy.url, pollIntervalMs: 20, requestTimeoutMs: 5_000 }),
    checkpoint: 'sd15/dreamshaper_8.safetensors',
    model: 'dreamshaper_8',
    modelHash: undefined,
    controlNetModel: 'control_v11p_sd15_canny.pth',
    lora: 'sd15/ink_wash.safetensors',
    a1111: false,
  }),
};

beforeAll(async () => {
  a1111 = await startA1111Double({ stepDelayMs: 1 });
  comfy = await startComfyUiDouble({ stepDelayMs: 1 });
});
afterAll(async () => {
  await Promise.all([a1111.close(), comfy.close()]);
});

const solid = (r: number, size = 64) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g: 60, b: 90 } } })
    .png()
    .toBuffer();

/** A prompt with commas, a weight's colon and Chinese, and a negative prompt, for every mode. */
const PROMPT = 'masterpiece, (山水:1.2), ink wash';
const NEGATIVE = 'lowres, 文字';

async function jobFor(setup: Setup, mode: Mode): Promise<EngineJob> {
  const base = engineJob({ prompt: PROMPT, negativePrompt: NEGATIVE, checkpoint: setup.checkpoint, steps: 4 });
  switch (mode) {
    case 'txt2img':
      return base;
    case 'img2img':
      return { ...base, mode: 'img2img', initImage: await solid(200), denoisingStrength: 0.55 };
    case 'inpaint':
      return { ...base, mode: 'inpaint', initImage: await solid(200), mask: await solid(255), denoisingStrength: 0.6 };
    case 'ControlNet':
      return {
        ...base,
        controlNets: [
          {
            module: 'canny',
            model: setup.controlNetModel,
            image: await solid(30),
            weight: 0.8,
            guidanceStart: 0.1,
            guidanceEnd: 0.9,
            processorRes: 512,
            thresholdA: 100,
            thresholdB: 200,
            controlMode: 2,
          },
        ],
      };
    case 'upscale':
      return { ...base, mode: 'upscale', initImage: await solid(120, 32), upscaleFactor: 2 };
    case 'LoRA':
      // An A1111 server reads LoRAs from the prompt; the others get them as the job's loras.
      return setup.a1111
        ? { ...base, prompt: `${PROMPT}, <lora:${setup.lora}:0.8>` }
        : { ...base, loras: [{ name: setup.lora, weight: 0.8, hash: '0123456789ab' }] };
    case 'batch':
      return { ...base, batchSize: 2 };
  }
}

describe.each(Object.keys(setups))('PNG info written by the %s engine', (name) => {
  it.each(MODES)('%s: every field reads back with A1111 parse rules', async (mode) => {
    const setup = setups[name]!();
    const job = await jobFor(setup, mode);
    const result: EngineResult = await setup.engine.run(job);
    expect(result.images).toHaveLength(mode === 'batch' ? 2 : 1);
    for (const image of result.images) {
      const text = readPngText(image.png).parameters!;
      expect(text).toBe(image.infotext);
      const fields = parseInfotext(text);
      expect(fields.Prompt?.replace(/, <lora:[^>]+>/, '')).toBe(PROMPT);
      expect(fields['Negative prompt']).toBe(NEGATIVE);
      expect(fields).toMatchObject({
        Steps: '4',
        'CFG scale': '7',
        Seed: String(image.seed),
        'Size-1': String(image.width),
        'Size-2': String(image.height),
        Model: setup.model,
      });
      expect(fields['Model hash']).toBe(setup.modelHash);
      if (setup.a1111) expect(fields.Sampler).toMatch(/^DPM\+\+ 2M/);
      else expect(fields).toMatchObject({ Sampler: 'DPM++ 2M', 'Schedule type': 'Karras' });
      if (mode === 'img2img' || mode === 'inpaint') {
        expect(Number(fields['Denoising strength'])).toBe(job.denoisingStrength);
      } else expect(fields['Denoising strength']).toBeUndefined();
      if (mode === 'upscale' && !setup.a1111) {
        expect(fields).toMatchObject({ 'Postprocess upscale by': '2', 'Size-1': '64', 'Size-2': '64' });
      }

      // /draw's reader gets the same, typed.
      const info = pngInfoSchema.parse(await readPngInfo(new Uint8Array(image.png)));
      expect(info).toMatchObject({ prompt: PROMPT, negativePrompt: NEGATIVE, steps: 4, cfgScale: 7, seed: image.seed });
      expect(info).toMatchObject({ sampler: 'DPM++ 2M', scheduleType: 'Karras', model: setup.model });
      expect([info.width, info.height]).toEqual([image.width, image.height]);
      if (mode === 'LoRA') {
        expect(info.loras).toEqual([{ name: setup.lora, weight: 0.8, hash: setup.a1111 ? null : '0123456789ab' }]);
        if (!setup.a1111) expect(fields['Lora hashes']).toBe(`${setup.lora}: 0123456789ab`);
      } else expect(info.loras).toEqual([]);
      if (mode === 'ControlNet') {
        expect(info.controlNets).toEqual([
          {
            module: 'canny',
            model: setup.controlNetModel,
            weight: 0.8,
            resizeMode: 'Crop and Resize',
            processorRes: 512,
            thresholdA: 100,
            thresholdB: 200,
            guidanceStart: 0.1,
            guidanceEnd: 0.9,
            pixelPerfect: false,
            controlMode: 2,
          },
        ]);
      } else expect(info.controlNets).toEqual([]);
    }
    if (mode === 'batch') expect(new Set(result.images.map((image) => image.seed)).size).toBe(2);
  });
});

describe('formatInfotext', () => {
  const job = engineJob({ prompt: 'a', negativePrompt: '', checkpoint: 'models/x, y: z.safetensors', steps: 20 });

  it('quotes values as A1111 does and keeps the ControlNet extension free of commas and colons', () => {
    const text = formatInfotext(
      {
        ...job,
        cfgScale: 6.5,
        controlNets: [{ module: 'canny', model: 'odd, name: v1', image: Buffer.alloc(0) }],
        loras: [{ name: 'a:b,c', weight: 1.25, hash: 'abc123' }],
      },
      7,
      { sampler: { sampler: 'Euler a', scheduleType: null }, modelHash: 'ffffffffff', extra: { Note: 'x, "y"' } },
    );
    expect(text).toBe(
      [
        'a, <lora:a:b,c:1.25>',
        'Steps: 20, Sampler: Euler a, Schedule type: Automatic, CFG scale: 6.5, Seed: 7, Size: 64x64, ' +
          'Model hash: ffffffffff, Model: "x, y: z", ' +
          'ControlNet 0: "Module: canny, Model: odd name v1, Weight: 1.0, Resize Mode: Crop and Resize, ' +
          'Processor Res: 512, Threshold A: -1.0, Threshold B: -1.0, Guidance Start: 0.0, Guidance End: 1.0, ' +
          'Pixel Perfect: False, Control Mode: Balanced", Lora hashes: "abc: abc123", Note: "x, \\"y\\""',
      ].join('\n'),
    );
    const fields = parseInfotext(text);
    expect(fields.Model).toBe('x, y: z');
    expect(fields.Note).toBe('x, "y"');
    expect(pngInfoFromParameters(text).modelHash).toBe('ffffffffff');
  });
});
