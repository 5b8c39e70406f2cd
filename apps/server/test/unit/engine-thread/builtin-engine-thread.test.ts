import { afterAll, expect, it } from 'vitest';
import { BuiltinEngine } from '../../../src/engines/builtin/builtin-engine.js';
import type { EngineJob, EngineProgress } from '../../../src/engines/engine.js';
import { createEngine } from '../../../src/engines/engine-registry.js';

const job: EngineJob = {
  mode: 'txt2img',
  prompt: 'mountain, moon, ink wash',
  negativePrompt: '',
  checkpoint: 'builtin-ink',
  sampler: 'Euler a',
  steps: 12,
  cfgScale: 7,
  width: 192,
  height: 192,
  seed: 9,
  batchSize: 2,
};
/** The built-in engine as the registry makes it: painting in a worker thread. */
const threaded = createEngine('builtin', { name: '内置演示引擎', baseUrl: '', username: null, secret: null });
afterAll(() => threaded.close?.());

it('paints in a worker thread the same bytes as on the main thread, with progress and previews', async () => {
  const progress: EngineProgress[] = [];
  const fromWorker = await threaded.run(job, { onProgress: (p) => progress.push(p) });
  const direct = await new BuiltinEngine().run(job);
  expect(fromWorker.images.map((i) => i.seed)).toEqual([9, 10]);
  fromWorker.images.forEach((image, index) => {
    expect(Buffer.isBuffer(image.png)).toBe(true);
    expect(image.png.equals(direct.images[index]!.png)).toBe(true);
  });
  expect(progress.at(-1)?.percent).toBe(100);
  expect(progress.some((p) => Buffer.isBuffer(p.preview))).toBe(true);
});

it('stops at the next step when the signal aborts and runs the next job normally', async () => {
  const controller = new AbortController();
  const stopped = await threaded.run(
    { ...job, steps: 40, batchSize: 3 },
    {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.percent >= 40) controller.abort();
      },
    },
  );
  expect(stopped.interrupted).toBe(true);
  expect(stopped.images.filter((i) => !i.interrupted).length).toBeLessThan(3);
  const next = await threaded.run({ ...job, batchSize: 1 });
  expect(next.interrupted).toBe(false);
  const map = await threaded.preprocess('invert', next.images[0]!.png);
  expect(map.subarray(1, 4).toString()).toBe('PNG');
});
