import { expect, it } from 'vitest';
import { DEMO_SENSITIVE_WORDS } from '../../src/features/moderation/sensitive-word.service.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

type Word = { id: string; word: string; category: string; createdAt: string };

describeServer('敏感词库: the admin word list (list, add, delete, import, export)', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });

  const call = (method: string, url: string, body?: unknown) => ctx.app.call(method, url, { token: ctx.admin, body });
  const list = async (query = '') =>
    (await call('GET', `/api/admin/sensitive-words?pageSize=100${query}`)).body.data as {
      list: Word[];
      total: number;
    };
  const exported = async (query = '') => {
    const res = await ctx.app.app.inject({
      method: 'GET',
      url: `/api/admin/sensitive-words/export${query}`,
      headers: { authorization: `Bearer ${ctx.admin}` },
    });
    return res;
  };
  const nicknameAllowed = async (nickname: string) =>
    (await ctx.app.call('POST', '/api/user/update/nickname', { token: ctx.user.token, body: { nickname } })).body
      .code === 0;

  it('starts from the demo list in three categories', async () => {
    const demo = Object.values(DEMO_SENSITIVE_WORDS).flat();
    const { list: words, total } = await list();
    expect(total).toBe(demo.length);
    expect(words.map((w) => w.word).sort()).toEqual([...demo].sort());
    const categories = (await call('GET', '/api/admin/sensitive-words/categories')).body;
    expect(categories).toMatchObject({ code: 0 });
    expect(categories.data).toEqual(
      Object.entries(DEMO_SENSITIVE_WORDS)
        .map(([category, words]) => ({ category, count: words.length }))
        .sort((a, b) => (a.category < b.category ? -1 : 1)),
    );
  });

  it('filters by category and finds words the way the filter compares them', async () => {
    const violent = await list(`&category=${encodeURIComponent('暴力')}`);
    expect(violent.list.map((w) => w.word).sort()).toEqual([...(DEMO_SENSITIVE_WORDS.暴力 ?? [])].sort());
    // Traditional characters and spaces in the keyword still find the word.
    expect((await list(`&keyword=${encodeURIComponent('虐 殺')}`)).list.map((w) => w.word)).toEqual(['虐杀']);
    expect((await list(`&keyword=${encodeURIComponent('ＰＯＲＮ')}`)).list.map((w) => w.word)).toEqual(['porn']);
    expect((await list(`&keyword=${encodeURIComponent('没有这个词')}`)).total).toBe(0);
    const page = (await call('GET', '/api/admin/sensitive-words?current=2&pageSize=4')).body.data;
    expect(page).toMatchObject({ current: 2, pageSize: 4 });
    expect(page.list).toHaveLength(4);
  });

  it('adds one or many words; a word already listed (in any spelling) is skipped', async () => {
    expect(await nicknameAllowed('蓝莓果酱')).toBe(true);
    const one = await call('POST', '/api/admin/sensitive-words', { words: ['蓝莓果酱'] });
    expect(one.body).toMatchObject({ code: 0, msg: '添加成功', data: { added: 1, skipped: 0 } });
    // Refused at once, in this process, with the field's message.
    expect(
      (
        await ctx.app.call('POST', '/api/user/update/nickname', {
          token: ctx.user.token,
          body: { nickname: '蓝莓果酱' },
        })
      ).body,
    ).toEqual({ code: -1, msg: '昵称包含不当内容，请修改后再试', data: null });
    const added = (await list(`&keyword=${encodeURIComponent('蓝莓')}`)).list[0];
    expect(added).toMatchObject({ word: '蓝莓果酱', category: '其他' });

    const many = await call('POST', '/api/admin/sensitive-words', {
      words: ['草莓果酱', '草 莓 果 醬', '虐殺', 'Strawberry Jam', 'strawberryjam'],
      category: '测试',
    });
    expect(many.body).toMatchObject({ code: 0, data: { added: 2, skipped: 3 } });
    const tested = await list(`&category=${encodeURIComponent('测试')}`);
    expect(tested.list.map((w) => w.word).sort()).toEqual(['Strawberry Jam', '草莓果酱']);
  });

  it('deletes with 删除成功, and the word is allowed again at once', async () => {
    const word = (await list(`&keyword=${encodeURIComponent('蓝莓果酱')}`)).list[0]!;
    const res = await call('DELETE', '/api/admin/sensitive-words', { ids: [word.id] });
    expect(res.body).toEqual({ code: 0, msg: '删除成功', data: null });
    expect(await nicknameAllowed('蓝莓果酱')).toBe(true);
    const again = await call('DELETE', '/api/admin/sensitive-words', { ids: [word.id] });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 404, msg: '敏感词不存在或已删除' });
  });

  it('imports a text file with 导入成功: categories per line or by parameter, blank lines and a BOM ignored', async () => {
    const text = '\uFEFF测试：黑莓果酱\r\n\r\n  树莓果酱  \n测试:草莓果酱\n色情:淫穢\n桑葚果酱\n';
    const res = await call('POST', '/api/admin/sensitive-words/import', { text, category: '导入' });
    expect(res.body).toEqual({ code: 0, msg: '导入成功', data: { added: 3, skipped: 2 } });
    const imported = await list(`&category=${encodeURIComponent('导入')}`);
    expect(imported.list.map((w) => w.word).sort()).toEqual(['树莓果酱', '桑葚果酱']);
    expect((await list(`&keyword=${encodeURIComponent('黑莓')}`)).list[0]).toMatchObject({ category: '测试' });
    const plain = await call('POST', '/api/admin/sensitive-words/import', { text: '无花果酱' });
    expect(plain.body.data).toEqual({ added: 1, skipped: 0 });
    expect((await list(`&keyword=${encodeURIComponent('无花果')}`)).list[0]).toMatchObject({ category: '其他' });
    expect(await nicknameAllowed('爱吃桑葚果酱')).toBe(false);
  });

  it('exports the list as a text/plain download that imports back to the same list', async () => {
    const before = await list();
    const res = await exported();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="sensitive-words-\d{4}-\d{2}-\d{2}\.txt"$/,
    );
    const lines = res.body.trimEnd().split('\n');
    expect(lines).toHaveLength(before.total);
    expect(lines).toContain('暴力:虐杀');
    expect(lines).toContain('测试:Strawberry Jam');
    const onlyViolence = (await exported(`?category=${encodeURIComponent('暴力')}`)).body.trimEnd().split('\n');
    expect(onlyViolence.sort()).toEqual((DEMO_SENSITIVE_WORDS.暴力 ?? []).map((w) => `暴力:${w}`).sort());

    const ids = before.list.map((w) => w.id);
    expect((await call('DELETE', '/api/admin/sensitive-words', { ids })).body.code).toBe(0);
    expect((await list()).total).toBe(0);
    expect((await exported()).body).toBe('');
    const back = await call('POST', '/api/admin/sensitive-words/import', { text: res.body });
    expect(back.body.data).toEqual({ added: before.total, skipped: 0 });
    const after = await list();
    const pairs = (words: Word[]) => words.map((w) => `${w.category}:${w.word}`).sort();
    expect(pairs(after.list)).toEqual(pairs(before.list));
    expect(await nicknameAllowed('虐杀')).toBe(false);
  });

  it('refuses bad input with Chinese messages, naming the line of an import', async () => {
    const cases: [string, string, object, string][] = [
      ['POST', '/api/admin/sensitive-words', { words: [] }, '请填写敏感词'],
      ['POST', '/api/admin/sensitive-words', { words: [' '] }, '请填写敏感词'],
      ['POST', '/api/admin/sensitive-words', { words: ['长'.repeat(51)] }, '敏感词不能超过 50 个字'],
      ['POST', '/api/admin/sensitive-words', { words: ['a\u200bb'] }, '敏感词不能包含控制字符或不可见字符'],
      ['POST', '/api/admin/sensitive-words', { words: ['词'], category: '分:类' }, '分类不能包含冒号'],
      ['POST', '/api/admin/sensitive-words', { words: ['词'], category: '类'.repeat(21) }, '分类不能超过 20 个字'],
      ['POST', '/api/admin/sensitive-words', { words: Array(1001).fill('词') }, '一次最多添加 1000 个敏感词'],
      ['DELETE', '/api/admin/sensitive-words', { ids: [] }, '请选择要删除的敏感词'],
      ['POST', '/api/admin/sensitive-words/import', { text: 'x'.repeat(300_001) }, '导入内容不能超过 300000 个字'],
    ];
    for (const [method, url, body, msg] of cases) {
      const res = await call(method, url, body);
      expect(res.body, JSON.stringify(body).slice(0, 80)).toMatchObject({ code: -1, msg });
    }
    const noLetters = await call('POST', '/api/admin/sensitive-words', { words: ['！！！'] });
    expect(noLetters.body).toMatchObject({ code: -1, msg: '「！！！」：敏感词须包含文字、字母或数字' });
    const imports: [string, string][] = [
      ['好词\n\n分类:\n', '第 3 行：请填写敏感词'],
      ['好词\n:坏词', '第 2 行：请填写分类'],
      ['***', '第 1 行：敏感词须包含文字、字母或数字'],
      [`${'长'.repeat(51)}`, '第 1 行：敏感词不能超过 50 个字'],
      ['\n \n', '没有可导入的敏感词，请每行填写一个'],
      [Array.from({ length: 20_001 }, (_, i) => `词${i}`).join('\n'), '一次最多导入 20000 个敏感词，请分批导入'],
    ];
    for (const [text, msg] of imports) {
      const res = await call('POST', '/api/admin/sensitive-words/import', { text });
      expect(res.body, text.slice(0, 40)).toMatchObject({ code: -1, msg });
    }
    // A refused import adds nothing, not even its good lines.
    expect((await list(`&keyword=${encodeURIComponent('好词')}`)).total).toBe(0);
  });

  it('is in the OpenAPI document, under 管理后台', async () => {
    const doc = (await ctx.app.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of ['', '/categories', '/import', '/export']) {
      expect(Object.keys(doc.paths)).toContain(`/api/admin/sensitive-words${path}`);
    }
    expect(doc.paths['/api/admin/sensitive-words'].post.tags).toEqual(['管理后台']);
  });

  it('keeps the list to admins: 403 for users, 401 for strangers', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/sensitive-words', undefined],
      ['GET', '/api/admin/sensitive-words/categories', undefined],
      ['GET', '/api/admin/sensitive-words/export', undefined],
      ['POST', '/api/admin/sensitive-words', { words: ['词'] }],
      ['POST', '/api/admin/sensitive-words/import', { text: '词' }],
      ['DELETE', '/api/admin/sensitive-words', { ids: ['x'] }],
    ] as const) {
      const asUser = await ctx.app.call(method, url, { token: ctx.user.token, body });
      expect(asUser.status, `${method} ${url}`).toBe(403);
      expect(asUser.body).toMatchObject({ code: -1, msg: '没有权限执行此操作' });
      expect((await ctx.app.call(method, url, { body })).status, `${method} ${url}`).toBe(401);
    }
  });
});
