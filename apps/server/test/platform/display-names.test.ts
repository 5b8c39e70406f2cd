import { expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describeServer('admin names: only visible characters', () => {
  const ctx = useTestApp({ admin: true });

  it('refuses NUL, a right-to-left override or only zero-width characters in names others see', async () => {
    const attempts = [
      ['/api/admin/model-groups', { name: '\u200b\u200b' }, '分组名称不能包含控制字符或不可见字符'],
      ['/api/task', { name: '\u202egpj.exe', parentId: null }, '任务名称不能包含控制字符或不可见字符'],
      [
        '/api/admin/backends',
        { name: '显卡\u0007一号', kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', enabled: false },
        '后端名称不能包含控制字符或不可见字符',
      ],
      // NUL is refused before any field is looked at (PostgreSQL cannot store it): the same answer on both databases.
      [
        '/api/admin/backends',
        { name: '显卡\u0000一号', kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', enabled: false },
        '请求内容包含无效字符（空字符），请删除后重试',
      ],
    ] as const;
    for (const [url, body, msg] of attempts) {
      const res = await ctx.app.call('POST', url, { token: ctx.admin, body });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ code: -1, msg, data: null });
    }
    const groups = await ctx.app.call('POST', '/api/admin/model-groups', {
      token: ctx.admin,
      body: { name: ' 显卡模型 ' },
    });
    expect(groups.body.code, groups.body.msg).toBe(0);
  });

  it('refuses names with no visible character in every name field: nickname, API key, group, plan, backend', async () => {
    const user = await registerUser(ctx.app);
    // Hangul fillers, the combining grapheme joiner, the blank Braille pattern, variation selectors, tags.
    const blanks = [
      '\uffa0\uffa0\uffa0',
      '\u034f\u034f\u034f',
      '\u115f\u1160',
      '\u3164\u3164',
      '\u2800\u2800',
      '\u180e\u180e',
      '\ufe0f\ufe0e\ufe0f',
      '\u{e0041}\u{e0042}',
    ];
    const fields = [
      ['昵称', '/api/user/update/nickname', user.token, (name: string) => ({ nickname: name })],
      ['密钥名称', '/api/user/apiKeys', user.token, (name: string) => ({ name, scopes: ['generate'] })],
      ['分组名称', '/api/admin/model-groups', ctx.admin, (name: string) => ({ name })],
      ['套餐名称', '/api/admin/combos', ctx.admin, (name: string) => ({ name, credits: 100, priceFen: 1000 })],
      [
        '后端名称',
        '/api/admin/backends',
        ctx.admin,
        (name: string) => ({ name, kind: 'sdwebui', baseUrl: 'http://127.0.0.1:9', enabled: false }),
      ],
    ] as const;
    for (const [label, url, token, body] of fields) {
      for (const blank of blanks) {
        const res = await ctx.app.call('POST', url, { token, body: body(blank) });
        const what = `${url} ${JSON.stringify(blank)}`;
        expect(res.status, what).toBe(400);
        expect(res.body.code, what).toBe(-1);
        expect(res.body.msg, what).toMatch(new RegExp(`^${label}不能(包含控制字符或不可见字符|只由不可见字符组成)$`));
      }
    }
    const me = await ctx.app.call('GET', '/api/user/currentUser', { token: user.token });
    expect(me.body.data.nickname).toBe('测试用户');
    expect((await ctx.app.call('GET', '/api/user/apiKeys', { token: user.token })).body.data).toEqual([]);
    // A visible name with an emoji variation selector is still a name.
    const plan = await ctx.app.call('POST', '/api/admin/combos', {
      token: ctx.admin,
      body: { name: '❤️ 月卡', credits: 100, priceFen: 1000 },
    });
    expect(plan.body.code, plan.body.msg).toBe(0);
  });
});
