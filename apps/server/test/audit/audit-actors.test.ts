import { expect, it } from 'vitest';
import { demoTemplate, generateBody } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { auditPage, callFrom } from './audit-helpers.js';

describeServer('audit trail: every admin action and refused prompt names its actor and target', () => {
  const ctx = useTestApp({ admin: true, users: { user: {} } });

  const only = async (ip: string) => {
    const { list } = await auditPage(ctx.app, ctx.admin, { ip, pageSize: 100 });
    expect(list).toHaveLength(1);
    return list[0]!;
  };

  it('names the admin and the backend and user an admin request acts on', async () => {
    const backends = await ctx.app.call('GET', '/api/admin/backends', { token: ctx.admin });
    const builtin = backends.body.data.find((backend: { builtin?: boolean }) => backend.builtin);
    const check = await callFrom(ctx.app, '192.0.2.70', 'POST', `/api/admin/backends/${builtin.id}/check`, {
      token: ctx.admin,
    });
    expect(check.body.code).toBe(0);
    expect(await only('192.0.2.70')).toMatchObject({
      action: 'admin.request',
      role: 'admin',
      actorName: '管理员',
      targetType: 'backend',
      targetId: builtin.id,
      detail: { method: 'POST', route: '/api/admin/backends/:id/check', status: 200 },
    });

    await callFrom(ctx.app, '192.0.2.72', 'POST', '/api/admin/users/disabled', {
      token: ctx.admin,
      body: { userId: ctx.user.userId, disabled: false },
    });
    expect(await only('192.0.2.72')).toMatchObject({
      actorName: '管理员',
      targetType: 'user',
      targetId: ctx.user.userId,
    });
  });

  it('records a prompt the word list refuses, with the user and the template', async () => {
    const ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
    const body = generateBody(ink, { width: 256, height: 256, steps: 6 });
    const refused = await callFrom(ctx.app, '192.0.2.73', 'POST', '/api/generate/task', {
      token: ctx.user.token,
      body: {
        ...body,
        promptGroup: [...body.promptGroup, { id: 'bad', groupName: '色情', promptText: 'lewd', custom: '0' }],
      },
    });
    expect(refused.body).toMatchObject({ code: -1, msg: '提示词包含不当内容，请修改后再试' });
    const entry = await only('192.0.2.73');
    expect(entry).toMatchObject({
      action: 'moderation.refused',
      userId: ctx.user.userId,
      role: 'user',
      targetType: 'template',
      targetId: ink.templateId,
      detail: { field: '提示词' },
    });
    expect(entry.actorName).toBeTruthy();
    expect(String(entry.detail.prompt)).toContain('lewd');
    // Only the submit is recorded: 预估 (predict), asked on every keystroke, is refused without an entry.
    await callFrom(ctx.app, '192.0.2.74', 'POST', '/api/generate/task/predict', {
      token: ctx.user.token,
      body: { ...body, promptGroup: [{ id: 'bad', groupName: '色情', promptText: 'lewd', custom: '0' }] },
    });
    expect((await auditPage(ctx.app, ctx.admin, { ip: '192.0.2.74' })).list).toEqual([]);
  });
});
