import { describe, expect, it } from 'vitest';
import { parameterRows } from './work-parameters';

describe('parameterRows', () => {
  it('lists the known parameters in form order with the image size, leaving out absent ones', () => {
    const rows = parameterRows(
      {
        steps: 8,
        seed: 42,
        sampler: 'Euler a',
        cfgScale: 7,
        modelId: 'm1',
        width: 512,
        batchSize: 1,
        denoisingStrength: 0.75,
        upscaleFactor: 2,
      },
      { width: 256, height: 384, mode: 'txt2img' },
    );
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['模型', 'm1'],
      ['生成方式', '文生图'],
      ['尺寸', '256 × 384'],
      ['采样步数', '8'],
      ['提示词相关性', '7'],
      ['采样器', 'Euler a'],
      ['随机种子', '42'],
    ]);
  });

  it('names the upscale factor and the ControlNet modules, skipping empty values', () => {
    const rows = parameterRows(
      {
        upscaleFactor: 2,
        sampler: ' ',
        denoisingStrength: Number.NaN,
        controlNets: [{ controlnetModule: 'canny' }, { controlnetModule: 'depth' }, {}],
      },
      { width: 1024, height: 1024, mode: 'upscale' },
    );
    expect(rows.map((row) => [row.key, row.value])).toEqual([
      ['mode', '高清放大'],
      ['size', '1024 × 1024'],
      ['upscaleFactor', '2 倍'],
      ['controlNets', 'canny、depth'],
    ]);
  });

  it('shows the 重绘幅度 of a public work by its mode, as public details carry no upload ids', () => {
    const keys = (mode: 'txt2img' | 'img2img') =>
      parameterRows({ denoisingStrength: 0.5 }, { width: 512, height: 512, mode }).map((row) => row.key);
    expect(keys('txt2img')).toEqual(['mode', 'size']);
    expect(keys('img2img')).toEqual(['mode', 'size', 'denoisingStrength']);
  });
});
