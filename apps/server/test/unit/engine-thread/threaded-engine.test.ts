import { threadId } from 'node:worker_threads';
import { afterAll, expect, it } from 'vitest';
import type { EngineJob, EngineProgress } from '../../../src/engines/engine.js';
import { engineThreadEntry, ThreadedEngine } from '../../../src/engines/threaded-engine.js';
import { ThreadEchoEngine } from './thread-echo-engine.js';

const job: EngineJob = {
  mode: 'txt2img',
  prompt: 'echo',
  negativePrompt: '',
  checkpoint: 'echo',
  sampler: 'Euler',
  steps: 4,
  cfgScale: 7,
  width: 64,
  height: 64,
  seed: 5,
  batchSize: 1,
};
const engine = new ThreadedEngine(new ThreadEchoEngine(), engineThreadEntry(import.meta.url, './thread-echo-entry'));
afterAll(() => engine.close());

it('runs a local engine other than the built-in one in a thread of its own, with progress and previews', async () => {
  const progress: EngineProgress[] = [];
  const result = await engine.run(job, { onProgress: (p) => progress.push(p) });
  const [image] = result.images;
  expect(image?.infotext).toMatch(/^thread \d+$/);
  expect(image?.infotext).not.toBe(`thread ${threadId}`);
  expect(Buffer.isBuffer(image?.png)).toBe(true);
  expect(progress.map((p) => p.step)).toEqual([1, 2, 3, 4]);
  expect(progress.every((p) => Buffer.isBuffer(p.preview))).toBe(true);
  // Lists and health need no thread: this one answers them.
  expect(await engine.health()).toEqual({ ok: true, message: `线程 ${threadId}`, busy: false });
  expect(engine.label).toBe('回声引擎');
  const map = await engine.preprocess('invert', Buffer.from('png'));
  expect(map.toString()).toBe(`invert@${image?.infotext.slice('thread '.length)}:png`);
});

it('stops a run when its signal aborts', async () => {
  const controller = new AbortController();
  const stopped = await engine.run(
    { ...job, steps: 500 },
    { signal: controller.signal, onProgress: (p) => p.step === 3 && controller.abort() },
  );
  expect(stopped.interrupted).toBe(true);
});

it('names the engine when a run fails; a thread that ends fails its job as retryable and the next run starts a new one', async () => {
  await expect(engine.run({ ...job, prompt: 'fail' })).rejects.toMatchObject({
    name: 'EngineError',
    message: '回声引擎出错：提示词不可用',
    retryable: false,
  });
  const before = (await engine.run(job)).images[0]?.infotext;
  await expect(engine.run({ ...job, prompt: 'exit' })).rejects.toMatchObject({
    message: '回声引擎意外停止（退出码 3）',
    retryable: true,
  });
  const after = (await engine.run(job)).images[0]?.infotext;
  expect(after).toMatch(/^thread \d+$/);
  expect(after).not.toBe(before);
});
