import { afterAll, beforeAll, expect, it } from 'vitest';
import { type A1111Double, startA1111Double } from '../doubles/a1111-double.js';
import { type ComfyUiDouble, startComfyUiDouble } from '../doubles/comfyui-double.js';
import { addModel, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const A1111_CHECKPOINT = 'v1-5-pruned-emaonly.safetensors [6ce0161689]';
const COMFY_CHECKPOINT = 'sd15/dreamshaper_8.safetensors';
const KOLORS_CHECKPOINT = 'kolors/Kolors.safetensors';
const HAN = /\p{Script=Han}/u;

describeServer(
  'Chinese prompts: translated for models that read English, as written for models that read Chinese',
  () => {
    const ctx = useTestApp({ admin: true, users: ['user'] });
    let a1111: A1111Double;
    let comfy: ComfyUiDouble;
    const models: Record<'a1111' | 'comfy' | 'kolors', string> = { a1111: '', comfy: '', kolors: '' };

    beforeAll(async () => {
      a1111 = await startA1111Double({ stepDelayMs: 5 });
      comfy = await startComfyUiDouble({ stepDelayMs: 3, checkpoints: [COMFY_CHECKPOINT, KOLORS_CHECKPOINT] });
      for (const [name, kind, url] of [
        ['A1111', 'sdwebui', a1111.url],
        ['ComfyUI', 'comfyui', comfy.url],
      ] as const) {
        const res = await ctx.app.call('POST', '/api/admin/backends', {
          token: ctx.admin,
          body: { name, kind, baseUrl: url, models: [], enabled: true },
        });
        expect(res.body.data, res.body.msg).toMatchObject({ healthy: true });
      }
      models.a1111 = await addModel(ctx.app, ctx.admin, {
        group: 'A1111',
        modelName: 'SD 1.5',
        engine: 'sdwebui',
        checkpoint: A1111_CHECKPOINT,
      });
      models.comfy = await addModel(ctx.app, ctx.admin, {
        group: 'ComfyUI',
        modelName: 'DreamShaper 8',
        engine: 'comfyui',
        checkpoint: COMFY_CHECKPOINT,
      });
      models.kolors = await addModel(ctx.app, ctx.admin, {
        group: 'Kolors',
        modelName: '可图',
        engine: 'comfyui',
        checkpoint: KOLORS_CHECKPOINT,
      });
    });
    afterAll(async () => {
      await a1111.close();
      await comfy.close();
    });

    const word = (id: string, groupName: string, promptText = groupName, extra: object = {}) => ({
      id,
      groupName,
      promptText,
      custom: '1',
      ...extra,
    });

    /** Runs a free creation to its end; its first work's detail. */
    async function run(modelId: string, promptGroup: object[], negativePromptGroup: object[] = []) {
      const submit = await ctx.app.call('POST', '/api/generate/task', {
        token: ctx.user.token,
        body: {
          templateId: null,
          promptGroup,
          negativePromptGroup,
          parameters: { modelId, width: 256, height: 256, steps: 4 },
        },
      });
      expect(submit.body.code, submit.body.msg).toBe(0);
      const { final } = await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
      expect(final.status, final.message).toBe('succeeded');
      const detail = await ctx.app.call('GET', `/api/works/profile/detail?id=${final.images[0].workId}`, {
        token: ctx.user.token,
      });
      expect(detail.body.code).toBe(0);
      return detail.body.data;
    }

    const comfyTexts = () =>
      Object.values(comfy.prompts.at(-1)!.graph)
        .filter((n) => n.class_type === 'CLIPTextEncode')
        .map((n) => String(n.inputs.text));

    it('models read English unless an admin says they read Chinese; the switch is off by default', async () => {
      const menu = await ctx.app.call('GET', '/api/art/model/menu?scope=all', { token: ctx.admin });
      const all = menu.body.data.flatMap((g: any) => g.models);
      expect(all.length).toBeGreaterThan(3);
      expect(all.every((m: any) => m.chinesePrompts === false)).toBe(true);

      const kolors = all.find((m: any) => m.id === models.kolors);
      const group = menu.body.data.find((g: any) => g.models.some((m: any) => m.id === models.kolors));
      const updated = await ctx.app.call('PUT', `/api/admin/models/${models.kolors}`, {
        token: ctx.admin,
        body: {
          groupId: group.id,
          modelName: kolors.modelName,
          baseModel: 'Kolors',
          engine: 'comfyui',
          checkpoint: KOLORS_CHECKPOINT,
          enabled: true,
          chinesePrompts: true,
        },
      });
      expect(updated.body.data).toMatchObject({ chinesePrompts: true, baseModel: 'Kolors' });
    });

    it('an A1111 model gets the English of free text, words without English and Chinese tags; the work keeps both', async () => {
      const work = await run(
        models.a1111,
        [
          word('a', '一只戴围巾的柴犬在雪地里'),
          // A template tag an admin added with no English form.
          { id: 'b', groupName: '柳枝新芽', promptText: '', custom: '0' },
          word('c', 'masterpiece'),
        ],
        [word('n', '模糊')],
      );
      const sent = a1111.requestsTo('/sdapi/v1/txt2img', 'POST').at(-1)!.body;
      expect(sent.prompt).not.toMatch(HAN);
      expect(sent.prompt).toContain('shiba');
      expect(sent.prompt).toContain('scarf');
      expect(sent.prompt).toContain('masterpiece');
      expect(sent.negative_prompt).toBe('blurry');

      expect(work.prompt).toBe(sent.prompt);
      expect(work.sourcePrompt).toBe('一只戴围巾的柴犬在雪地里, 柳枝新芽, masterpiece');
      expect(work.negativePrompt).toBe('blurry');
      expect(work.sourceNegativePrompt).toBe('模糊');
      expect(work.promptGroup[0]).toMatchObject({
        groupName: '一只戴围巾的柴犬在雪地里',
        english: expect.stringContaining('shiba'),
      });
      expect(work.promptGroup[1].english).not.toMatch(HAN);
      // English words need no English of their own.
      expect(work.promptGroup[2].english).toBeUndefined();
    });

    it("uses the user's own English for a word, still translating Chinese left in it", async () => {
      const work = await run(models.a1111, [word('a', '柴犬', '柴犬', { english: 'a fluffy shiba inu, 雪地' })]);
      const sent = a1111.requestsTo('/sdapi/v1/txt2img', 'POST').at(-1)!.body;
      expect(sent.prompt).toMatch(/^a fluffy shiba inu, snow/);
      expect(sent.prompt).not.toMatch(HAN);
      expect(work.promptGroup[0]).toMatchObject({ groupName: '柴犬', english: sent.prompt });
    });

    it('a ComfyUI model that reads English gets English', async () => {
      const work = await run(models.comfy, [word('a', '夕阳下的城市')], [word('n', '水印')]);
      expect(comfyTexts()).toEqual(expect.arrayContaining(['city under sunset', 'watermark']));
      expect(work).toMatchObject({ prompt: 'city under sunset', sourcePrompt: '夕阳下的城市' });
    });

    it('a model that reads Chinese gets the Chinese as written, the English the user edited ignored', async () => {
      const work = await run(
        models.kolors,
        [word('a', '一只戴围巾的柴犬在雪地里', '一只戴围巾的柴犬在雪地里', { english: 'a dog' })],
        [word('n', '模糊')],
      );
      expect(comfyTexts()).toEqual(expect.arrayContaining(['一只戴围巾的柴犬在雪地里', '模糊']));
      expect(work).toMatchObject({ prompt: '一只戴围巾的柴犬在雪地里', sourcePrompt: null, negativePrompt: '模糊' });
      expect(work.promptGroup[0].english).toBeUndefined();
    });

    it('refuses a listed word in the English the user wrote, naming the 自由创作 box', async () => {
      const added = await ctx.app.call('POST', '/api/admin/sensitive-words', {
        token: ctx.admin,
        body: { words: ['forbiddenword'] },
      });
      expect(added.body.code, added.body.msg).toBe(0);
      const res = await ctx.app.call('POST', '/api/generate/task', {
        token: ctx.user.token,
        body: {
          templateId: null,
          promptGroup: [word('a', '柴犬', '柴犬', { english: 'forbiddenword dog' })],
          negativePromptGroup: [],
          parameters: { modelId: models.a1111, width: 256, height: 256, steps: 4 },
        },
      });
      expect(res.body).toMatchObject({ code: -1, msg: '画面描述包含不当内容，请修改后再试' });
    });

    it('the same words submitted at once are one prompt history entry', async () => {
      const body = {
        templateId: null,
        promptGroup: [word(`w-${Date.now()}`, '雨夜的霓虹街道')],
        negativePromptGroup: [],
        parameters: { modelId: models.a1111, width: 256, height: 256, steps: 4 },
      };
      const answers = await Promise.all(
        [1, 2, 3].map((n) =>
          ctx.app.call('POST', '/api/generate/task', {
            token: ctx.user.token,
            body: { ...body, promptGroup: [{ ...body.promptGroup[0], id: `w${n}` }] },
          }),
        ),
      );
      for (const answer of answers) expect(answer.body.code, answer.body.msg).toBe(0);
      for (const answer of answers) await waitForEnd(ctx.app, ctx.user.token, answer.body.data.generateId);
      const history = await ctx.app.call('GET', '/api/prompt/history/page?keyword=霓虹', { token: ctx.user.token });
      expect(history.body.data.total).toBe(1);
      expect(history.body.data.list[0].promptGroup[0]).toMatchObject({
        groupName: '雨夜的霓虹街道',
        id: expect.any(String),
      });
    });
  },
);
