import { beforeAll, expect, it } from 'vitest';
import { SensitiveWordFilter } from '../../src/features/moderation/sensitive-word-filter.js';
import { type Broadcast, LocalBroadcast } from '../../src/platform/broadcast/broadcast.js';
import { createRepositories } from '../../src/repositories.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { validStep } from '../helpers/template-steps.js';
import { SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const SMALL = { width: 256, height: 256, steps: 8 };
type Result = { body: { code: number; msg: string; data: unknown } };

/** The answer to a refused text: body code -1 and the field's message, naming no word and no list. */
const expectRefused = (res: Result, label: string) =>
  expect(res.body).toEqual({ code: -1, msg: `${label}包含不当内容，请修改后再试`, data: null });

const item = (groupName: string, promptText: string, custom: '0' | '1' = '0') => ({
  id: `w-${groupName}`,
  groupName,
  promptText,
  custom,
});

describeServer('content safety: user texts with a listed word are refused (demo list)', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
  });

  const call = (method: string, url: string, body?: unknown, token = ctx.user.token) =>
    ctx.app.call(method, url, { token, body });
  const nickname = async () => (await call('GET', '/api/user/currentUser')).body.data.nickname;

  it('nickname: at 完善资料 and on change, however the word is spaced or written', async () => {
    for (const bad of ['色情达人', '虐 殺 者', '顛覆國家政權', 'ＰＯＲＮ', 'p.o.r.n', '色，情']) {
      expectRefused(await call('POST', '/api/user/update/nickname', { nickname: bad }), '昵称');
    }
    expectRefused(await call('POST', '/api/user/perfectInfo', { nickname: '淫穢小王' }), '昵称');
    expect(await nickname()).toBe('测试用户');
    // Clean names pass, also ones that merely contain the letters of a Latin word.
    expect((await call('POST', '/api/user/update/nickname', { nickname: 'Pornpetch 王' })).body.code).toBe(0);
    expect((await call('POST', '/api/user/perfectInfo', { nickname: '画坊新人' })).body.code).toBe(0);
    expect(await nickname()).toBe('画坊新人');
  });

  it('generation: prompt, negative prompt and custom words; nothing is queued or charged', async () => {
    const jobs = async () => (await ctx.app.db.selectFrom('generation_jobs').select('id').execute()).length;
    const history = async () =>
      (await ctx.app.db.selectFrom('prompt_history').select('id').where('user_id', '=', ctx.user.userId).execute())
        .length;
    const [jobsBefore, historyBefore, credits] = [
      await jobs(),
      await history(),
      await creditsOf(ctx.app, ctx.user.token),
    ];
    const body = generateBody(ink, SMALL);
    const cases: [object, string][] = [
      [{ promptGroup: [...body.promptGroup, item('色情', 'lewd')] }, '提示词'],
      // The translated text is checked as well as the label.
      [{ promptGroup: [...body.promptGroup, item('图片', 'P O R N')] }, '提示词'],
      [{ negativePromptGroup: [item('血腥暴力', 'gore violence')] }, '反向提示词'],
      [{ promptGroup: [...body.promptGroup, item('顛覆國家政權', 'subversion', '1')] }, '自定义提示词'],
      [{ negativePromptGroup: [item('自定义', '斩 首', '1')] }, '自定义提示词'],
    ];
    for (const [changes, label] of cases) {
      for (const url of ['/api/generate/task', '/api/generate/task/predict']) {
        expectRefused(await call('POST', url, { ...body, ...changes }), label);
      }
    }
    expect(await jobs()).toBe(jobsBefore);
    expect(await history()).toBe(historyBefore);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits);

    // The next step of a generation is checked the same way.
    const twoStep = await demoTemplate(ctx.app, ctx.user.token, '场景化主图');
    const submit = await call('POST', '/api/generate/task', generateBody(twoStep, SMALL));
    expect(submit.body.code).toBe(0);
    const { generateId } = submit.body.data as { generateId: string };
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    const afterFirst = [await jobs(), await creditsOf(ctx.app, ctx.user.token)];
    const step = await call('POST', '/api/generate/task/step', {
      generateId,
      imageWorkId: final.images[0].workId,
      stepIndex: 1,
      promptGroup: [item('海报', 'poster'), item('裸聊', 'chat', '1')],
    });
    expectRefused(step, '自定义提示词');
    expect([await jobs(), await creditsOf(ctx.app, ctx.user.token)]).toEqual(afterFirst);
  });

  it('template names: saved, renamed, by admins and by owners of a copy', async () => {
    const tree = (await call('GET', '/api/task/tree', undefined, ctx.admin)).body.data as any[];
    const task = tree.flatMap((category) => category.children)[0];
    const save = (name: string, token = ctx.admin, taskId = task.id) =>
      call('POST', '/api/task/template/save/draft', { taskId, name, taskStepList: [validStep()] }, token);
    expectRefused(await save('色情模板'), '模板名称');
    const saved = await save('干净的模板');
    expect(saved.body.code).toBe(0);
    const templateId = saved.body.data.templateId;
    const rename = (name: string, token = ctx.admin, id = templateId) =>
      call('POST', '/api/task/template/rename', { templateId: id, name }, token);
    expectRefused(await rename('虐殺合集'), '模板名称');
    expect((await call('GET', `/api/task/template/detail/${templateId}`, undefined, ctx.admin)).body.data.name).toBe(
      '干净的模板',
    );

    const copy = await call('POST', '/api/task/copy_to_mine', { taskId: task.id });
    expect(copy.body.code).toBe(0);
    const mine = (await call('GET', `/api/task/template/list?taskId=${copy.body.data.id}`)).body.data[0]
      .visTemplateList[0];
    expectRefused(await rename('分裂 国家', ctx.user.token, mine.templateId), '模板名称');
    expectRefused(await save('ｐｏｒｎ合集', ctx.user.token, copy.body.data.id), '模板名称');
    expect((await rename('我的模板', ctx.user.token, mine.templateId)).body.code).toBe(0);
  });

  it('task names: created and renamed, by admins and by owners of a copy', async () => {
    const count = async () => (await ctx.app.db.selectFrom('task_nodes').select('id').execute()).length;
    const before = await count();
    expectRefused(await call('POST', '/api/task', { name: '斩首行动' }, ctx.admin), '任务名称');
    expect(await count()).toBe(before);
    const created = await call('POST', '/api/task', { name: '风景分类' }, ctx.admin);
    expect(created.body.code).toBe(0);
    expectRefused(await call('PUT', `/api/task/${created.body.data.id}`, { name: '血腥暴力' }, ctx.admin), '任务名称');
    // Fields other than the name can change alone.
    expect((await call('PUT', `/api/task/${created.body.data.id}`, { description: '山水' }, ctx.admin)).body.code).toBe(
      0,
    );

    const mine = (await call('GET', '/api/task/tree/mine')).body.data[0].children[0];
    expectRefused(await call('PUT', `/api/task/${mine.id}`, { name: '淫秽任务' }), '任务名称');
    expect((await call('PUT', `/api/task/${mine.id}`, { name: '我的任务一' })).body.code).toBe(0);
  });

  it('help requests: the description and the contact', async () => {
    const typeId = (await call('GET', '/api/help/type')).body.data[0].id;
    const total = async () => (await call('GET', '/api/admin/help', undefined, ctx.admin)).body.data.total;
    const before = await total();
    expectRefused(await call('POST', '/api/help', { typeId, content: '有人发布色 情图片，请处理' }), '问题描述');
    expectRefused(
      await call('POST', '/api/help', { typeId, content: '请帮我看看这个问题', contact: 'porn@example.com' }),
      '联系方式',
    );
    expect(await total()).toBe(before);
    const clean = await call('POST', '/api/help', { typeId, content: '生成的图片看不清楚', contact: '13800000000' });
    expect(clean.body).toMatchObject({ code: 0, msg: '提交成功，我们会尽快响应' });
  });

  it('translation: the Chinese before it goes to a provider, and the English it becomes', async () => {
    const translate = (text: string) => call('POST', '/api/translate/zh2en', { text });
    expectRefused(await translate('月亮，色情图片'), '翻译内容');
    expectRefused(await translate('斬 首'), '翻译内容');
    expect((await translate('猫')).body).toMatchObject({ code: 0, data: { text: 'cat' } });
    // A word only the English holds: the translation is refused, not shown.
    const added = await call('POST', '/api/admin/sensitive-words', { words: ['cat'], category: '测试' }, ctx.admin);
    expect(added.body.data).toEqual({ added: 1, skipped: 0 });
    expectRefused(await translate('猫'), '翻译结果');
    const id = (await call('GET', '/api/admin/sensitive-words?keyword=cat', undefined, ctx.admin)).body.data.list[0].id;
    expect((await call('DELETE', '/api/admin/sensitive-words', { ids: [id] }, ctx.admin)).body.code).toBe(0);
    expect((await translate('猫')).body.data).toEqual({ text: 'cat' });
  });

  it('refuses none of the demo content: prompt library, templates, tasks and help types', async () => {
    const filter = ctx.app.services.wordFilter;
    const texts: string[] = [];
    for (const word of await ctx.app.db.selectFrom('prompt_words').select(['label', 'text']).execute()) {
      texts.push(word.label, word.text);
    }
    for (const step of await ctx.app.db
      .selectFrom('template_steps')
      .select(['name', 'prompt_group', 'negative_prompt_group'])
      .execute()) {
      texts.push(step.name);
      for (const group of [step.prompt_group, step.negative_prompt_group]) {
        for (const entry of JSON.parse(group) as { groupName: string; promptText: string }[]) {
          texts.push(entry.groupName, entry.promptText);
        }
      }
    }
    for (const table of ['templates', 'task_nodes', 'help_types'] as const) {
      for (const row of await ctx.app.db.selectFrom(table).select('name').execute()) texts.push(row.name);
    }
    expect(texts.length).toBeGreaterThan(1000);
    const hits: string[] = [];
    for (const text of texts) if (await filter.check(text)) hits.push(text);
    expect(hits).toEqual([]);
  });

  it('sees a change at once where the notice may have been missed: the list revision is compared', async () => {
    // A process whose broadcast subscription is down, and a worker (which hears no broadcasts at all).
    const deaf: Broadcast = { live: false, publish: async () => {}, subscribe: () => {}, onGap: () => {} };
    const filters = [
      new SensitiveWordFilter(createRepositories(ctx.app.db, ctx.app.config.database.kind), deaf, true),
      new SensitiveWordFilter(
        createRepositories(ctx.app.db, ctx.app.config.database.kind),
        new LocalBroadcast(),
        false,
      ),
    ];
    for (const filter of filters) expect(await filter.check('柠檬果酱')).toBeNull();
    await call('POST', '/api/admin/sensitive-words', { words: ['柠檬果酱'] }, ctx.admin);
    for (const filter of filters) expect(await filter.check('一瓶柠檬果酱')).toBe('柠檬果酱');
    const id = (
      await call('GET', `/api/admin/sensitive-words?keyword=${encodeURIComponent('柠檬')}`, undefined, ctx.admin)
    ).body.data.list[0].id;
    await call('DELETE', '/api/admin/sensitive-words', { ids: [id] }, ctx.admin);
    for (const filter of filters) expect(await filter.check('一瓶柠檬果酱')).toBeNull();
  });

  it.runIf(SCALE_OUT)('another API process refuses a new word, and allows a deleted one, at once', async () => {
    const other = await ctx.app.sibling();
    try {
      const rename = (nickname: string) =>
        other.call('POST', '/api/user/update/nickname', { token: ctx.user.token, body: { nickname } });
      // The other process has compiled the list before the change.
      expect((await rename('橘子果酱')).body.code).toBe(0);
      await call('POST', '/api/admin/sensitive-words', { words: ['橘子果酱'] }, ctx.admin);
      expectRefused(await rename('橘子果酱'), '昵称');
      const id = (
        await call('GET', `/api/admin/sensitive-words?keyword=${encodeURIComponent('橘子')}`, undefined, ctx.admin)
      ).body.data.list[0].id;
      await call('DELETE', '/api/admin/sensitive-words', { ids: [id] }, ctx.admin);
      expect((await rename('橘子果酱')).body.code).toBe(0);
    } finally {
      await other.close();
    }
  });
});
