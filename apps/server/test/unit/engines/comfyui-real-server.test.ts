import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { ComfyUiEngine } from '../../../src/engines/comfyui/comfyui-engine.js';
import { buildGenerationGraph } from '../../../src/engines/comfyui/comfyui-graph.js';
import type { EngineJob, EngineProgress } from '../../../src/engines/engine.js';
import { readPngText } from '../../../src/engines/png-text.js';
import {
  type ComfyUiDouble,
  type ComfyUiDoubleOptions,
  seedColour,
  startComfyUiDouble,
} from '../../doubles/comfyui-double.js';
import { engineJob } from './engine-test-kit.js';

/** The adapter against behaviours of a real ComfyUI (v0.3.10) the double reproduces: see engines.md §4. */

const CHECKPOINT = 'sd15/dreamshaper_8.safetensors';
const job = (overrides: Partial<EngineJob> = {}) =>
  engineJob({ prompt: 'lighthouse', negativePrompt: 'blurry', checkpoint: CHECKPOINT, steps: 3, ...overrides });

const doubles: ComfyUiDouble[] = [];
afterEach(async () => {
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});
async function start(options: ComfyUiDoubleOptions = {}) {
  const double = await startComfyUiDouble({ stepDelayMs: 2, interruptDelayMs: 20, ...options });
  doubles.push(double);
  return double;
}
const engineFor = (double: ComfyUiDouble) =>
  new ComfyUiEngine({ baseUrl: double.url, pollIntervalMs: 20, requestTimeoutMs: 2_000 });

/** Another client of the same server queues a prompt of its own (no socket of ours involved). */
async function foreignPrompt(double: ComfyUiDouble, steps: number): Promise<string> {
  const { graph } = buildGenerationGraph(job({ steps, seed: 99 }), { seed: 99 });
  const reply = await fetch(`${double.url}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: graph, client_id: 'someone-else' }),
  });
  return ((await reply.json()) as { prompt_id: string }).prompt_id;
}

async function historyStatus(double: ComfyUiDouble, promptId: string): Promise<unknown> {
  for (;;) {
    const body = (await (await fetch(`${double.url}/history/${promptId}`)).json()) as Record<string, any>;
    if (body[promptId]) return body[promptId].status.status_str;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ComfyUI adapter against a double that behaves like the real server', () => {
  it('matches the images of a batch to their seeds by output node, whatever order the server runs them in', async () => {
    const orders = new Set<string>();
    for (const orderSeed of [1, 2, 3, 4, 5, 6]) {
      const double = await start({ orderSeed });
      const result = await engineFor(double).run(job({ batchSize: 3, seed: 500 }));
      expect(result.images.map((i) => i.seed)).toEqual([500, 501, 502]);
      for (const image of result.images) {
        const { data } = await sharp(image.png).raw().toBuffer({ resolveWithObject: true });
        const colour = seedColour(image.seed, 0);
        expect([data[0], data[1], data[2]]).toEqual([colour.r, colour.g, colour.b]);
        expect(image.infotext).toContain(`Seed: ${image.seed}`);
      }
      const saves = double.sent.filter((m) => m.type === 'executed').map((m) => m.node);
      orders.add(saves.join(','));
    }
    // The shuffle is real: some start ran the batch out of node order.
    expect(orders.size).toBeGreaterThan(1);
  });

  it('finishes a repeated prompt served from cache: no progress events, the same image', async () => {
    const double = await start();
    const engine = engineFor(double);
    const first = await engine.run(job({ seed: 7 }));
    const progress: EngineProgress[] = [];
    const again = await engine.run(job({ seed: 7 }), { onProgress: (p) => progress.push(p) });
    const promptId = double.prompts[1]!.promptId;
    const events = double.sent.filter((m) => m.promptId === promptId).map((m) => m.type);
    expect(events).toEqual(['execution_start', 'execution_cached', 'executed', 'execution_success']);
    expect(again).toMatchObject({ interrupted: false, seed: 7 });
    expect(again.images).toHaveLength(1);
    expect(again.images[0]!.png.equals(first.images[0]!.png)).toBe(true);
    expect(progress.map((p) => p.percent)).toEqual([100]);
  });

  it('gets previews only from a server started with a preview method, as 512-px JPEG', async () => {
    const plain = await start();
    const quiet: EngineProgress[] = [];
    await engineFor(plain).run(job({ seed: 1 }), { onProgress: (p) => quiet.push(p) });
    expect(quiet.length).toBeGreaterThan(1);
    expect(quiet.some((p) => p.preview)).toBe(false);
    expect(plain.sent.some((m) => m.type === 'preview')).toBe(false);

    const previewing = await start({ previewMethod: 'latent2rgb' });
    const shown: EngineProgress[] = [];
    await engineFor(previewing).run(job({ seed: 2 }), { onProgress: (p) => shown.push(p) });
    const frame = shown.find((p) => p.preview);
    expect(frame?.previewMime).toBe('image/jpeg');
    expect(await sharp(frame!.preview!).metadata()).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
  });

  it('never interrupts a prompt that is not ours: ours waiting behind another is taken off the queue', async () => {
    const double = await start({ stepDelayMs: 5 });
    const queued = double.next('queued');
    const theirs = await foreignPrompt(double, 40);
    await queued;
    const controller = new AbortController();
    const ourQueued = double.next('queued');
    const running = engineFor(double).run(job({ seed: 3 }), { signal: controller.signal });
    const ours = await ourQueued;
    expect(double.queue()).toEqual({ running: [theirs], pending: [ours] });
    controller.abort();
    expect(await running).toMatchObject({ images: [], interrupted: true });
    expect(double.interrupts).toEqual([]);
    expect(double.deletes).toEqual([ours]);
    expect(await historyStatus(double, theirs)).toBe('success');
  });

  it('interrupts our running prompt only, and another client queued behind it still runs', async () => {
    const double = await start({ stepDelayMs: 5 });
    const controller = new AbortController();
    let theirs: Promise<string> | null = null;
    const result = await engineFor(double).run(job({ seed: 4, steps: 30 }), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.step >= 2 && !theirs) {
          theirs = foreignPrompt(double, 2);
          void theirs.then(() => controller.abort());
        }
      },
    });
    expect(result.interrupted).toBe(true);
    const ours = double.prompts[0]!.promptId;
    expect(double.interrupts).toEqual([ours]);
    expect(await historyStatus(double, await theirs!)).toBe('success');
    expect(await historyStatus(double, ours)).toBe('error');
  });

  it('sends a UI workflow that ComfyUI writes into the PNG, and drops its prompt chunk', async () => {
    const double = await start();
    const init = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const engine = engineFor(double);
    const result = await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 0.5, seed: 21 }));
    const texts = readPngText(result.images[0]!.png);
    expect(texts.prompt).toBeUndefined();
    expect(texts.parameters).toContain('Seed: 21');
    const workflow = JSON.parse(texts.workflow!);
    const graph = double.prompts[0]!.graph;
    expect(workflow.nodes).toHaveLength(Object.keys(graph).length);
    const sampler = workflow.nodes.find((n: any) => n.type === 'KSampler');
    expect(sampler.widgets_values).toEqual([21, 'fixed', 3, 7, 'dpmpp_2m', 'karras', 0.5]);
    expect(sampler.inputs.map((i: any) => i.name)).toEqual(['model', 'positive', 'negative', 'latent_image']);
    const load = workflow.nodes.find((n: any) => n.type === 'LoadImage');
    expect(load.widgets_values).toEqual([graph[String(load.id)]!.inputs.image, 'image']);
    expect(workflow.links.length).toBeGreaterThan(5);

    // The same picture again: one name in a subfolder of its own, overwritten, kept out of LoadImage's list.
    await engine.run(job({ mode: 'img2img', initImage: init, denoisingStrength: 0.5, seed: 22 }));
    expect(new Set(double.uploads.map((u) => `${u.subfolder}/${u.name}`)).size).toBe(1);
    const info = (await (await fetch(`${double.url}/object_info/LoadImage`)).json()) as any;
    expect(info.LoadImage.input.required.image[0]).toEqual([]);
  });
});
