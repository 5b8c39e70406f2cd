import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { BuiltinEngine } from '../src/engines/builtin/builtin-engine.js';
import type { EngineJob } from '../src/engines/engine.js';

/**
 * Figures for the built-in demo engine (内置演示引擎) on this machine: a 512×512 image at 20 steps,
 * per step, and what a live preview costs. Printed, never asserted.
 */
const RUNS = 5;
// libvips threads off: the figures are for one core.
sharp.concurrency(1);

const job = (prompt: string, checkpoint: string, seed: number): EngineJob => ({
  mode: 'txt2img',
  prompt,
  negativePrompt: 'low quality, watermark',
  checkpoint,
  sampler: 'Euler a',
  steps: 20,
  cfgScale: 7,
  width: 512,
  height: 512,
  seed,
  batchSize: 1,
});

const PROMPTS: [string, string][] = [
  ['水墨, 山, 月, 鹤', 'builtin-ink'],
  ['赛博朋克, 城市, 夜', 'builtin-realistic'],
  ['花, 粉色, watercolor', 'builtin-realistic'],
  ['1girl, 樱花', 'builtin-anime'],
  ['猫, oil painting, 夕阳', 'builtin-realistic'],
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function measure(engine: BuiltinEngine, label: string) {
  const totals: number[] = [];
  const stepTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const [prompt, checkpoint] = PROMPTS[r % PROMPTS.length]!;
    const started = performance.now();
    let last = started;
    await engine.run(job(prompt, checkpoint, 1000 + r), {
      onProgress: () => {
        const now = performance.now();
        stepTimes.push(now - last);
        last = now;
      },
    });
    totals.push(performance.now() - started);
  }
  return { label, image: median(totals), step: median(stepTimes), worst: Math.max(...totals) };
}

const engine = new BuiltinEngine();
await engine.run(job('warm up', 'builtin-realistic', 1)); // JIT warm-up
const withPreviews = await measure(new BuiltinEngine({ previewEvery: 3 }), 'previews every 3 steps (default)');
const everyStep = await measure(new BuiltinEngine({ previewEvery: 1 }), 'a preview every step');
const noPreviews = await measure(new BuiltinEngine({ previewEvery: 1000 }), 'no previews');
const previewCost = (everyStep.image - noPreviews.image) / 20;

console.log(`内置演示引擎 — 512×512, 20 steps, Euler a, median of ${RUNS} runs (one core, Node ${process.version})`);
for (const row of [withPreviews, everyStep, noPreviews]) {
  console.log(
    `  ${row.label.padEnd(34)} ${row.image.toFixed(0).padStart(6)} ms/image  ${row.step.toFixed(1).padStart(6)} ms/step (median)  worst ${row.worst.toFixed(0)} ms`,
  );
}
console.log(`  preview cost (WebP 256 px)         ${previewCost.toFixed(1).padStart(6)} ms/preview`);
