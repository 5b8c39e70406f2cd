import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  a1111SamplerFromComfy,
  a1111SamplerOf,
  joinInfotext,
  modelBaseName,
  parseInfotext,
  pngInfoSchema,
  readPngInfo,
  readPngTextChunks,
  siteSamplerFor,
  takeLoraTags,
} from '../src/index.js';

// PNGs as the tools write them: a 1×1 picture and text chunks right after IHDR (PIL's PngInfo, ComfyUI's SaveImage).
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

type Text = { keyword: string; text: string; kind?: 'tEXt' | 'iTXt' | 'zTXt' | 'iTXt-z' };

function textChunk({ keyword, text, kind = 'tEXt' }: Text): Buffer {
  const key = Buffer.from(keyword, 'latin1');
  if (kind === 'tEXt') return chunk('tEXt', Buffer.concat([key, Buffer.from([0]), Buffer.from(text, 'latin1')]));
  if (kind === 'zTXt')
    return chunk('zTXt', Buffer.concat([key, Buffer.from([0, 0]), deflateSync(Buffer.from(text, 'latin1'))]));
  const compressed = kind === 'iTXt-z';
  const body = compressed ? deflateSync(Buffer.from(text, 'utf8')) : Buffer.from(text, 'utf8');
  return chunk('iTXt', Buffer.concat([key, Buffer.from([0, compressed ? 1 : 0, 0, 0, 0]), body]));
}

export function pngWith(texts: Text[]): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.from([0, 255, 255, 255]));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      ...texts.map(textChunk),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

// What AUTOMATIC1111 v1.10.1 with the ControlNet extension writes for a LoRA + ControlNet txt2img.
const A1111_TEXT = [
  'masterpiece, 1girl, (ink wash:1.2), <lora:ink_style:0.8>, <lora:detail_tweaker:0.5>',
  'Negative prompt: lowres, bad anatomy',
  'Steps: 28, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 6.5, Seed: 3844126093, Size: 512x768, ' +
    'Model hash: 6ce0161689, Model: v1-5-pruned-emaonly, Denoising strength: 0.45, ' +
    'ControlNet 0: "Module: canny, Model: control_v11p_sd15_canny [d14c016b], Weight: 1.0, Resize Mode: Crop and Resize, ' +
    'Processor Res: 512, Threshold A: 100.0, Threshold B: 200.0, Guidance Start: 0.0, Guidance End: 1.0, ' +
    'Pixel Perfect: False, Control Mode: Balanced", ' +
    'Lora hashes: "ink_style: 0123456789ab, detail_tweaker: ee4f2ba5b6a8", Version: v1.10.1',
].join('\n');

describe('A1111 parse rules', () => {
  it('splits prompt, negative prompt and the pairs of the last line, unquoting JSON values and sizes', () => {
    const fields = parseInfotext(A1111_TEXT);
    expect(fields.Prompt).toBe('masterpiece, 1girl, (ink wash:1.2), <lora:ink_style:0.8>, <lora:detail_tweaker:0.5>');
    expect(fields['Negative prompt']).toBe('lowres, bad anatomy');
    expect(fields).toMatchObject({
      Steps: '28',
      Sampler: 'DPM++ 2M',
      'Schedule type': 'Karras',
      'CFG scale': '6.5',
      Seed: '3844126093',
      'Size-1': '512',
      'Size-2': '768',
      'Model hash': '6ce0161689',
      'Lora hashes': 'ink_style: 0123456789ab, detail_tweaker: ee4f2ba5b6a8',
      Version: 'v1.10.1',
    });
    expect(fields['ControlNet 0']).toMatch(/^Module: canny, Model: control_v11p_sd15_canny \[d14c016b\]/);
  });

  it('keeps a last line with fewer than three pairs as prompt, and multi-line prompts whole', () => {
    expect(parseInfotext('a cat\nStyle: ink, Mood: calm')).toEqual({
      Prompt: 'a cat\nStyle: ink, Mood: calm',
      'Negative prompt': '',
    });
    const fields = parseInfotext('line one\nline two\nNegative prompt: a\nb\nSteps: 1, Sampler: Euler, Seed: 2');
    expect(fields.Prompt).toBe('line one\nline two');
    expect(fields['Negative prompt']).toBe('a\nb');
  });

  it('round-trips values with commas, colons, quotes and line breaks as A1111 quotes them', () => {
    const odd = ['a, b', 'c: d', 'say "hi"', '"quoted"', 'x\ny', '中文，逗号'];
    const text = joinInfotext(
      'p',
      '',
      odd.map((value, i) => [`Key ${i}`, value]),
    );
    expect(text).toContain('Key 0: "a, b"');
    expect(text).toContain('Key 2: say "hi"');
    const fields = parseInfotext(`${text.split('\n')[0]}\n${text.split('\n').slice(1).join('\n')}`);
    odd.forEach((value, i) => {
      expect(fields[`Key ${i}`]).toBe(value);
    });
  });
});

describe('sampler names', () => {
  it('maps ComfyUI sampler + scheduler to A1111 spelling and back to the site options', () => {
    expect(a1111SamplerFromComfy('dpmpp_2m', 'karras')).toEqual({ sampler: 'DPM++ 2M', scheduleType: 'Karras' });
    expect(a1111SamplerFromComfy('euler_ancestral', 'normal')).toEqual({ sampler: 'Euler a', scheduleType: 'Normal' });
    expect(a1111SamplerFromComfy('ddim', 'ddim_uniform')).toEqual({ sampler: 'DDIM', scheduleType: 'DDIM' });
    expect(a1111SamplerFromComfy('res_multistep', 'linear_quadratic')).toEqual({
      sampler: 'res_multistep',
      scheduleType: 'linear_quadratic',
    });
    expect(a1111SamplerOf('DPM++ 2M Karras')).toEqual({ sampler: 'DPM++ 2M', scheduleType: 'Karras' });
    expect(a1111SamplerOf('DPM++ 2M SDE')).toEqual({ sampler: 'DPM++ 2M SDE', scheduleType: null });
    expect(a1111SamplerOf('dpmpp_sde')).toEqual({ sampler: 'DPM++ SDE', scheduleType: null });
    const site = ['Euler a', 'Euler', 'DPM++ 2M Karras', 'DPM++ SDE Karras', 'DDIM', 'UniPC'];
    expect(siteSamplerFor({ sampler: 'DPM++ 2M', scheduleType: 'Karras' }, site)).toBe('DPM++ 2M Karras');
    expect(siteSamplerFor({ sampler: 'Euler a', scheduleType: 'Automatic' }, site)).toBe('Euler a');
    expect(siteSamplerFor({ sampler: 'Euler a', scheduleType: 'Normal' }, site)).toBe('Euler a');
    expect(siteSamplerFor({ sampler: 'LMS', scheduleType: null }, site)).toBeNull();
    expect(siteSamplerFor({ sampler: 'DPM++ 2M', scheduleType: null }, ['euler', 'dpmpp_2m'])).toBe('dpmpp_2m');
  });

  it('names models and LoRAs by their file base name', () => {
    expect(modelBaseName('v1-5-pruned-emaonly.safetensors [6ce0161689]')).toBe('v1-5-pruned-emaonly');
    expect(modelBaseName('sd15/dreamshaper_8.safetensors')).toBe('dreamshaper_8');
    expect(modelBaseName('builtin-ink')).toBe('builtin-ink');
    expect(takeLoraTags('a, <lora:x:0.7>, b <lora:y:1:0.5>')).toEqual({
      prompt: 'a, b',
      loras: [
        { name: 'x', weight: 0.7 },
        { name: 'y', weight: 1 },
      ],
    });
  });
});

describe('PNG chunks', () => {
  it('reads tEXt, zTXt and iTXt (plain and compressed), the first of a keyword winning', async () => {
    const png = pngWith([
      { keyword: 'a', text: 'latin ÿ' },
      { keyword: 'b', text: 'deflated', kind: 'zTXt' },
      { keyword: 'c', text: '水墨山水', kind: 'iTXt' },
      { keyword: 'd', text: '国风, 月', kind: 'iTXt-z' },
      { keyword: 'a', text: 'second' },
    ]);
    expect(await readPngTextChunks(png)).toEqual({ a: 'latin ÿ', b: 'deflated', c: '水墨山水', d: '国风, 月' });
    expect(await readPngTextChunks(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(await readPngInfo(pngWith([]))).toBeNull();
  });
});

describe('PNG info of each tool', () => {
  it('AUTOMATIC1111 v1.10: every field, LoRAs with their hashes, the ControlNet unit', async () => {
    const info = await readPngInfo(pngWith([{ keyword: 'parameters', text: A1111_TEXT }]));
    expect(pngInfoSchema.parse(info)).toEqual({
      source: 'a1111',
      prompt: 'masterpiece, 1girl, (ink wash:1.2)',
      negativePrompt: 'lowres, bad anatomy',
      steps: 28,
      sampler: 'DPM++ 2M',
      scheduleType: 'Karras',
      cfgScale: 6.5,
      seed: 3844126093,
      width: 512,
      height: 768,
      model: 'v1-5-pruned-emaonly',
      modelHash: '6ce0161689',
      loras: [
        { name: 'ink_style', weight: 0.8, hash: '0123456789ab' },
        { name: 'detail_tweaker', weight: 0.5, hash: 'ee4f2ba5b6a8' },
      ],
      denoisingStrength: 0.45,
      controlNets: [
        {
          module: 'canny',
          model: 'control_v11p_sd15_canny [d14c016b]',
          weight: 1,
          resizeMode: 'Crop and Resize',
          processorRes: 512,
          thresholdA: 100,
          thresholdB: 200,
          guidanceStart: 0,
          guidanceEnd: 1,
          pixelPerfect: false,
          controlMode: 0,
        },
      ],
    });
  });

  it('an older A1111 (sampler "DPM++ 2M Karras", no schedule type) and a Chinese prompt in iTXt', async () => {
    const text =
      '水墨, 山\nNegative prompt: 文字\nSteps: 20, Sampler: DPM++ 2M Karras, CFG scale: 7, Seed: 1, Size: 512x512';
    const info = await readPngInfo(pngWith([{ keyword: 'parameters', text, kind: 'iTXt' }]));
    expect(info).toMatchObject({
      prompt: '水墨, 山',
      negativePrompt: '文字',
      sampler: 'DPM++ 2M',
      scheduleType: 'Karras',
    });
    expect(info?.model).toBeNull();
  });

  it('画坊: parameters beside the GB 45438 AIGC label', async () => {
    const text =
      'a\nSteps: 8, Sampler: Euler a, Schedule type: Automatic, CFG scale: 7, Seed: 5, Size: 64x64, Model: builtin-ink';
    const info = await readPngInfo(
      pngWith([
        { keyword: 'parameters', text },
        { keyword: 'AIGC', text: '{"AIGC":{"Label":"1"}}' },
      ]),
    );
    expect(info).toMatchObject({ source: 'huafang', model: 'builtin-ink', scheduleType: 'Automatic' });
  });

  // ComfyUI's SaveImage: `prompt` (the API graph) and `workflow` (the UI's nodes and links), both tEXt JSON.
  const comfyPrompt = {
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd15/dreamshaper_8.safetensors' } },
    '10': {
      class_type: 'LoraLoader',
      inputs: {
        lora_name: 'styles/ink_style.safetensors',
        strength_model: 0.8,
        strength_clip: 0.8,
        model: ['4', 0],
        clip: ['4', 1],
      },
    },
    '11': {
      class_type: 'LoraLoader',
      inputs: {
        lora_name: 'detail.safetensors',
        strength_model: 0.5,
        strength_clip: 0.5,
        model: ['10', 0],
        clip: ['10', 1],
      },
    },
    '5': { class_type: 'EmptyLatentImage', inputs: { width: 640, height: 960, batch_size: 1 } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: 'ink wash, mountains', clip: ['11', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['11', 1] } },
    '12': { class_type: 'ControlNetLoader', inputs: { control_net_name: 'control_v11p_sd15_canny.pth' } },
    '13': { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
    '14': { class_type: 'Canny', inputs: { low_threshold: 0.4, high_threshold: 0.8, image: ['13', 0] } },
    '15': {
      class_type: 'ControlNetApplyAdvanced',
      inputs: {
        strength: 0.9,
        start_percent: 0,
        end_percent: 0.8,
        positive: ['6', 0],
        negative: ['7', 0],
        control_net: ['12', 0],
        image: ['14', 0],
      },
    },
    '3': {
      class_type: 'KSampler',
      inputs: {
        seed: 156680208700286,
        steps: 20,
        cfg: 8,
        sampler_name: 'dpmpp_2m',
        scheduler: 'karras',
        denoise: 1,
        model: ['11', 0],
        positive: ['15', 0],
        negative: ['15', 1],
        latent_image: ['5', 0],
      },
    },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } },
  };
  const comfyWorkflow = {
    last_node_id: 9,
    last_link_id: 9,
    nodes: [
      { id: 4, type: 'CheckpointLoaderSimple', inputs: [], widgets_values: ['v1-5-pruned-emaonly.ckpt'] },
      { id: 5, type: 'EmptyLatentImage', inputs: [], widgets_values: [512, 512, 1] },
      {
        id: 6,
        type: 'CLIPTextEncode',
        inputs: [{ name: 'clip', type: 'CLIP', link: 3 }],
        widgets_values: ['a bottle'],
      },
      {
        id: 7,
        type: 'CLIPTextEncode',
        inputs: [{ name: 'clip', type: 'CLIP', link: 5 }],
        widgets_values: ['text, watermark'],
      },
      {
        id: 3,
        type: 'KSampler',
        inputs: [
          { name: 'model', type: 'MODEL', link: 1 },
          { name: 'positive', type: 'CONDITIONING', link: 4 },
          { name: 'negative', type: 'CONDITIONING', link: 6 },
          { name: 'latent_image', type: 'LATENT', link: 2 },
        ],
        widgets_values: [42, 'fixed', 25, 7.5, 'euler_ancestral', 'normal', 1],
      },
    ],
    links: [
      [1, 4, 0, 3, 0, 'MODEL'],
      [2, 5, 0, 3, 3, 'LATENT'],
      [3, 4, 1, 6, 0, 'CLIP'],
      [4, 6, 0, 3, 1, 'CONDITIONING'],
      [5, 4, 1, 7, 0, 'CLIP'],
      [6, 7, 0, 3, 2, 'CONDITIONING'],
    ],
    version: 0.4,
  };

  it('ComfyUI prompt graph: follows the sampler through ControlNet to the texts, the LoRA chain to the checkpoint', async () => {
    const info = await readPngInfo(
      pngWith([
        { keyword: 'prompt', text: JSON.stringify(comfyPrompt) },
        { keyword: 'workflow', text: JSON.stringify(comfyWorkflow) },
      ]),
    );
    expect(pngInfoSchema.parse(info)).toEqual({
      source: 'comfy',
      prompt: 'ink wash, mountains',
      negativePrompt: 'blurry',
      steps: 20,
      sampler: 'DPM++ 2M',
      scheduleType: 'Karras',
      cfgScale: 8,
      seed: 156680208700286,
      width: 640,
      height: 960,
      model: 'sd15/dreamshaper_8.safetensors',
      modelHash: null,
      loras: [
        { name: 'ink_style', weight: 0.8, hash: null },
        { name: 'detail', weight: 0.5, hash: null },
      ],
      denoisingStrength: null,
      controlNets: [
        {
          module: 'canny',
          model: 'control_v11p_sd15_canny',
          weight: 0.9,
          resizeMode: null,
          processorRes: null,
          thresholdA: 102,
          thresholdB: 204,
          guidanceStart: 0,
          guidanceEnd: 0.8,
          pixelPerfect: null,
          controlMode: null,
        },
      ],
    });
  });

  it('ComfyUI workflow alone (a picture saved from the UI without its prompt)', async () => {
    const info = await readPngInfo(pngWith([{ keyword: 'workflow', text: JSON.stringify(comfyWorkflow) }]));
    expect(info).toMatchObject({
      source: 'comfy',
      prompt: 'a bottle',
      negativePrompt: 'text, watermark',
      steps: 25,
      cfgScale: 7.5,
      seed: 42,
      sampler: 'Euler a',
      scheduleType: 'Normal',
      width: 512,
      height: 512,
      model: 'v1-5-pruned-emaonly.ckpt',
    });
  });

  it('ComfyUI img2img: the denoise of a sampler that starts from VAEEncode', async () => {
    const graph = {
      '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'm.safetensors' } },
      '2': { class_type: 'LoadImage', inputs: { image: 'x.png' } },
      '3': { class_type: 'VAEEncode', inputs: { pixels: ['2', 0], vae: ['1', 2] } },
      '4': { class_type: 'CLIPTextEncode', inputs: { text: 'p', clip: ['1', 1] } },
      '5': { class_type: 'CLIPTextEncode', inputs: { text: 'n', clip: ['1', 1] } },
      '6': {
        class_type: 'KSampler',
        inputs: {
          seed: 7,
          steps: 10,
          cfg: 5,
          sampler_name: 'euler',
          scheduler: 'simple',
          denoise: 0.55,
          model: ['1', 0],
          positive: ['4', 0],
          negative: ['5', 0],
          latent_image: ['3', 0],
        },
      },
    };
    const info = await readPngInfo(pngWith([{ keyword: 'prompt', text: JSON.stringify(graph) }]));
    expect(info).toMatchObject({ denoisingStrength: 0.55, width: null, sampler: 'Euler', scheduleType: 'Simple' });
  });
});
