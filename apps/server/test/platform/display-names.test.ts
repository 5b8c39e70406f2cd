import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, loginAdmin, type TestApp } from '../helpers/test-app.js';

describeServer('admin names: only visible characters', () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await loginAdmin(app);
  });
  afterAll(() => app.close());

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
      const res = await app.call('POST', url, { token: admin, body });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ code: -1, msg, data: null });
    }
    const groups = await app.call('POST', '/api/admin/model-groups', { token: admin, body: { name: ' 显卡模型 ' } });
    expect(groups.body.code, groups.body.msg).toBe(0);
  });
});
