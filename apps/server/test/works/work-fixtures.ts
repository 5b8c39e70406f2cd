import sharp from 'sharp';
import { addPngText } from '../../src/engines/png-text.js';
import { storeWorkFiles } from '../../src/features/works/work-files.js';
import { newId } from '../../src/platform/ids.js';
import type { TestApp } from '../helpers/test-app.js';

export type SeedWork = {
  templateId?: string | null;
  templateName?: string;
  prompt?: string;
  createdAt?: string;
  public?: boolean;
  /** When it was published (public works), else its createdAt. */
  publishedAt?: string;
};

/**
 * Works as the generation pipeline stores them (rows plus PNG and WebP files), made directly so a test can
 * have hundreds without painting each one. Every PNG is distinct (its colour and text follow the index).
 */
export async function seedWorks(app: TestApp, userId: string, works: SeedWork[]): Promise<string[]> {
  const storage = app.services.storage;
  const ids: string[] = [];
  for (const [index, work] of works.entries()) {
    const id = newId();
    const prompt = work.prompt ?? `test prompt ${index}`;
    const png = addPngText(
      await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: index % 256, g: (index * 7) % 256, b: 90 } },
      })
        .png()
        .toBuffer(),
      'parameters',
      `${prompt}\nSteps: 20, Seed: ${index}, Size: 64x48`,
    );
    const files = await storeWorkFiles(storage, id, png);
    // A seeded work is one whose keeping has finished, thumbnail included (WorkKeeper makes it just after the
    // original); on s3rver a read during that write can see half a file.
    await files.thumbnail;
    const createdAt = work.createdAt ?? new Date(Date.UTC(2026, 10, 1) + index * 60_000).toISOString();
    await app.services.workRepo.insert({
      id,
      user_id: userId,
      generation_id: newId(),
      job_id: newId(),
      template_id: work.templateId ?? null,
      template_name: work.templateName ?? '自由创作',
      template_step_id: null,
      step_index: 0,
      mode: 'txt2img',
      prompt,
      negative_prompt: 'blurry',
      prompt_group: JSON.stringify([{ id: `w${index}`, groupName: prompt, promptText: prompt, custom: '1' }]),
      negative_prompt_group: '[]',
      parameters: JSON.stringify({ steps: 20, seed: index, width: 64, height: 48 }),
      seed: index,
      width: 64,
      height: 48,
      backend: '内置演示引擎',
      image_key: files.imageKey,
      thumb_key: files.thumbKey,
      public: work.public ? 1 : 0,
      published_at: work.public ? (work.publishedAt ?? createdAt) : null,
      created_at: createdAt,
    });
    // 热门 orders by the stored score, which publishing sets.
    if (work.public) await app.services.workRepo.refreshHot(id);
    ids.push(id);
  }
  return ids;
}
