import sharp from 'sharp';
import { expect, it } from 'vitest';
import { readBytes } from '../../src/platform/storage/storage.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

describeServer('thumbnails in the sizes the layouts use', () => {
  const ctx = useTestApp({ users: { alice: { nickname: '爱丽丝' } } });

  it('makes a size the first time it is asked for, keeps it, serves it labelled, and deletes it with the work', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: '大小', public: true }]);
    const thumb = (query: string) => ctx.app.app.inject({ method: 'GET', url: `/api/works/thumb/${workId}${query}` });
    const storage = ctx.app.services.storage;
    const kept = `works/${workId}.thumb-640.webp`;
    expect(await storage.read(kept)).toBeNull();

    for (const query of ['', '?w=256', '?w=384', '?w=640', '?w=640']) {
      const answer = await thumb(query);
      expect(answer.statusCode, query).toBe(200);
      expect(answer.headers['content-type']).toBe('image/webp');
      const meta = await sharp(answer.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      // The seeded original is 64×48: no size enlarges it.
      expect([meta.width, meta.height]).toEqual([64, 48]);
      // Labelled as every thumbnail leaving the service is (the AIGC label in its XMP).
      expect(meta.xmp?.toString('utf8')).toContain('AIGC');
    }
    const stored = await storage.read(kept);
    expect(stored).not.toBeNull();
    if (stored) expect((await readBytes(stored)).length).toBeGreaterThan(0);

    const refused = await thumb('?w=300');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: -1, msg: '缩略图尺寸不支持' });

    const deleted = await ctx.app.call('DELETE', '/api/works', { token: ctx.alice.token, body: { ids: [workId] } });
    expect(deleted.body.code).toBe(0);
    expect((await thumb('?w=640')).statusCode).toBe(404);
    expect(await storage.read(kept)).toBeNull();
  });

  it('makes the stored thumbnail from the original when it is asked for before it is kept', async () => {
    const [workId] = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: '尚未', public: true }]);
    const storage = ctx.app.services.storage;
    const key = `works/${workId}.thumb.webp`;
    // As a work just kept whose thumbnail is still being encoded (see storeWorkFiles).
    await storage.remove(key);
    const answer = await ctx.app.app.inject({ method: 'GET', url: `/api/works/thumb/${workId}` });
    expect(answer.statusCode).toBe(200);
    const meta = await sharp(answer.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.xmp?.toString('utf8')).toContain('AIGC');
    expect(await storage.read(key)).not.toBeNull();
  });
});
