import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from './work-fixtures.js';

/** `/work/:id`, the page a shared link opens: what a guest may read of one work through /api/works/public/detail. */
describeServer('a shared work: one public work for a guest', () => {
  const ctx = useTestApp({ admin: true, users: { alice: { nickname: '爱丽丝' } } });
  let shown: string;
  let unpublished: string;
  let hidden: string;
  let modelId: string;
  let modelName: string;
  let lora: { id: string; name: string };

  beforeAll(async () => {
    lora = await ctx.app.db.selectFrom('loras').select(['id', 'name']).executeTakeFirstOrThrow();
    const model = await ctx.app.db.selectFrom('models').select(['id', 'model_name']).executeTakeFirstOrThrow();
    modelId = model.id;
    modelName = model.model_name;
    const ids = await seedWorks(ctx.app, ctx.alice.userId, [
      { prompt: 'a shiba inu in a scarf', public: true, templateName: '水墨山水' },
      { prompt: 'private', public: false },
      { prompt: 'taken down', public: true },
    ]);
    [shown, unpublished, hidden] = ids as [string, string, string];
    // The author wrote Chinese, the model read English; the work was made from one of the author's uploads.
    await ctx.app.services.workRepo.update(shown, {
      source_prompt: '一只戴围巾的柴犬',
      parameters: JSON.stringify({
        modelId,
        steps: 20,
        initImageFileId: 'upload-of-alice',
        seed: 0,
        loras: [{ loraId: lora.id, weight: 0.6 }],
      }),
    });
    const hide = await ctx.app.call('POST', '/api/admin/works/hide', {
      token: ctx.admin,
      body: { id: hidden, hidden: true },
    });
    expect(hide.body.code).toBe(0);
  });

  const open = (id: string) => ctx.app.call('GET', `/api/works/public/detail?id=${id}`);

  it('shows a guest the public work: picture, author, the words as written, model, LoRA styles and counts', async () => {
    const answer = await open(shown);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 0 });
    expect(answer.body.data).toMatchObject({
      id: shown,
      templateName: '水墨山水',
      author: { nickname: '爱丽丝' },
      prompt: 'a shiba inu in a scarf',
      sourcePrompt: '一只戴围巾的柴犬',
      modelName,
      loraStyles: [lora],
      likes: 0,
      favorites: 0,
      liked: false,
      favorited: false,
    });
    // A public work's links are plain: they open for anyone the link is sent to.
    expect(answer.body.data.thumbUrl).toBe(`/api/works/thumb/${shown}`);
    const thumb = await ctx.app.app.inject({ method: 'GET', url: answer.body.data.thumbUrl });
    expect(thumb.statusCode).toBe(200);
  });

  it('leaks nothing private: no owner id, no mobile, no upload ids, no storage keys', async () => {
    const { data } = (await open(shown)).body;
    const text = JSON.stringify(data);
    expect(text).not.toContain(ctx.alice.userId);
    expect(text).not.toContain('upload-of-alice');
    expect(data.parameters).not.toHaveProperty('initImageFileId');
    for (const field of ['userId', 'user_id', 'mobile', 'account', 'imageKey', 'image_key', 'hidden', 'backend']) {
      expect(data).not.toHaveProperty(field);
      expect(data.author).not.toHaveProperty(field);
    }
  });

  it('answers a private or hidden work, or an unknown id, as not found in the envelope', async () => {
    for (const id of [unpublished, hidden, 'no-such-work']) {
      const answer = await open(id);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 404, msg: '作品不存在或未公开', data: null });
    }
    // Even the author reads their private work through their own gallery, not through the shared page.
    const own = await ctx.app.call('GET', `/api/works/public/detail?id=${unpublished}`, { token: ctx.alice.token });
    expect(own.body.code).toBe(404);
  });

  it('refuses an id that is not one, naming the field in Chinese', async () => {
    const answer = await open('x'.repeat(65));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(-1);
    expect(answer.body.msg).toContain('作品');
  });
});
