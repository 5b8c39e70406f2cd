import { createHash } from 'node:crypto';
import type { AuditEntry } from '@huafang/contracts';
import { beforeAll, expect, it } from 'vitest';
import { readPngText } from '../../src/engines/png-text.js';
import { readBytes } from '../../src/platform/storage/storage.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { PASSWORD, registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { auditPage, callFrom, flushAudit, masked, newestFirst } from './audit-helpers.js';

const SMALL = { width: 256, height: 256, steps: 4 };

describeServer('audit: what the trail records, through the API as users and admins use it', () => {
  const ctx = useTestApp({ admin: true, users: ['user'] });
  let adminId: string;
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  /** The works of the generation the tests below publish and delete. */
  let workIds: string[] = [];
  beforeAll(async () => {
    adminId = (await ctx.app.call('GET', '/api/user/currentUser', { token: ctx.admin })).body.data.userId;
    ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
  });

  const page = (query: Parameters<typeof auditPage>[2]) => auditPage(ctx.app, ctx.admin, query);
  const only = async (query: Parameters<typeof auditPage>[2]) => {
    const { list, total } = await page({ ...query, pageSize: 100 });
    expect(total, JSON.stringify(list)).toBe(1);
    return list[0]!;
  };

  it('records logins with the mobile masked and the client address, and failures with their reason', async () => {
    const ok = await callFrom(ctx.app, '203.0.113.7', 'POST', '/api/auth/account', {
      body: { account: ctx.user.mobile, password: PASSWORD },
    });
    expect(ok.body.code).toBe(0);
    const wrong = await callFrom(ctx.app, '203.0.113.8', 'POST', '/api/auth/account', {
      body: { account: ctx.user.account, password: 'not-the-password' },
    });
    expect(wrong.body.code).toBe(-1);
    const nobody = await callFrom(ctx.app, '203.0.113.9', 'POST', '/api/auth/account', {
      body: { account: '13712345678', password: PASSWORD },
    });
    expect(nobody.body.code).toBe(-1);
    // Past the resend interval of the code registration sent.
    ctx.app.advanceClock(61_000);
    expect((await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile: ctx.user.mobile } })).body.code).toBe(0);
    const sms = await callFrom(ctx.app, '203.0.113.10', 'POST', '/api/auth/mobile', {
      body: { mobile: ctx.user.mobile, code: ctx.app.smsCode(ctx.user.mobile) },
    });
    expect(sms.body.code).toBe(0);

    expect(await only({ ip: '203.0.113.7' })).toMatchObject({
      action: 'auth.login',
      userId: ctx.user.userId,
      mobile: masked(ctx.user.mobile),
      role: 'user',
      ip: '203.0.113.7',
      apiKeyId: null,
      detail: { method: 'password' },
    });
    expect(masked(ctx.user.mobile)).toMatch(/^1\d\d\*{4}\d{4}$/);
    // A failure against a known account: its user, the account name as typed, and the message the caller got.
    expect(await only({ ip: '203.0.113.8' })).toMatchObject({
      action: 'auth.login_failed',
      userId: ctx.user.userId,
      mobile: masked(ctx.user.mobile),
      role: 'user',
      detail: { method: 'password', account: ctx.user.account, reason: wrong.body.msg },
    });
    // A mobile nobody has: no user, the number masked all the same.
    expect(await only({ ip: '203.0.113.9' })).toMatchObject({
      action: 'auth.login_failed',
      userId: null,
      mobile: '137****5678',
      role: 'system',
      detail: { method: 'password', reason: '账号或密码错误' },
    });
    expect(await only({ ip: '203.0.113.10' })).toMatchObject({
      action: 'auth.login',
      userId: ctx.user.userId,
      mobile: masked(ctx.user.mobile),
      detail: { method: 'sms' },
    });
    // Neither a whole mobile number nor a password or code is anywhere in the trail.
    const all = JSON.stringify(await page({ category: 'auth', pageSize: 100 }));
    expect(all).not.toContain(ctx.user.mobile);
    expect(all).not.toContain('13712345678');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain('not-the-password');
  });

  it('records a generation from submit to end: prompt, model, backend, and the hash and ProduceID of each output', async () => {
    const submit = await callFrom(ctx.app, '198.51.100.20', 'POST', '/api/generate/task', {
      token: ctx.user.token,
      body: generateBody(ink, { ...SMALL, batchSize: 2 }),
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { generateId, currentStepId } = submit.body.data;
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('succeeded');
    workIds = final.images.map((image: { workId: string }) => image.workId);
    expect(workIds).toHaveLength(2);
    const work = await ctx.app.db
      .selectFrom('works')
      .selectAll()
      .where('id', '=', workIds[0]!)
      .executeTakeFirstOrThrow();

    const asked = await only({ action: 'generation.submit', userId: ctx.user.userId });
    expect(asked).toMatchObject({
      userId: ctx.user.userId,
      ip: '198.51.100.20',
      targetType: 'generation',
      targetId: generateId,
      detail: {
        jobId: currentStepId,
        mode: 'txt2img',
        templateName: '水墨山水',
        prompt: work.prompt,
        negativePrompt: work.negative_prompt,
        checkpoint: expect.any(String),
        engine: 'builtin',
        imageCount: 2,
        cost: 2,
      },
    });
    expect(asked.detail.prompt).not.toBe('');

    const done = await only({ action: 'generation.succeeded', userId: ctx.user.userId });
    expect(done).toMatchObject({
      userId: ctx.user.userId,
      mobile: masked(ctx.user.mobile),
      // The job ran later (in scale-out, in the worker): the entry keeps the address of the submit.
      ip: '198.51.100.20',
      targetId: generateId,
      detail: {
        jobId: currentStepId,
        prompt: work.prompt,
        checkpoint: asked.detail.checkpoint,
        backend: '内置演示引擎',
        imageCount: 2,
        produced: 2,
      },
    });
    // Each output: the work's id, which is the ProduceID of its implicit AIGC label, and the SHA-256 of the stored file.
    const outputs = done.detail.outputs as { produceId: string; sha256: string }[];
    expect(outputs.map((output) => output.produceId).sort()).toEqual([...workIds].sort());
    for (const output of outputs) {
      const stored = await readBytes((await ctx.app.services.storage.read(`works/${output.produceId}.png`))!);
      expect(output.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
      expect(JSON.parse(readPngText(stored).AIGC!).AIGC.ProduceID).toBe(output.produceId);
    }

    // The credits it reserved: a change of the user's balance, tied to the job.
    const charge = await only({ action: 'credits.change', userId: ctx.user.userId });
    expect(charge).toMatchObject({
      ip: '198.51.100.20',
      targetType: 'user',
      targetId: ctx.user.userId,
      detail: { delta: -2, balance: 98, reason: 'charge', ref: { jobId: currentStepId } },
    });
  });

  it('records publishing, withdrawing and deleting a work', async () => {
    const [first, second] = workIds as [string, string];
    const from = '198.51.100.30';
    const publish = (body: object) =>
      callFrom(ctx.app, from, 'POST', '/api/works/publish', { token: ctx.user.token, body });
    expect((await publish({ id: first, public: true })).body.code).toBe(0);
    expect((await publish({ id: first, public: true, hidePrompt: true })).body.msg).toBe('设置成功');
    expect((await publish({ id: first, public: false })).body.code).toBe(0);
    expect((await publish({ id: second, public: true })).body.code).toBe(0);
    const removed = await callFrom(ctx.app, from, 'DELETE', '/api/works', {
      token: ctx.user.token,
      body: { ids: [first, second] },
    });
    expect(removed.body.code).toBe(0);
    // Another user's work is not theirs to touch: refused, and nothing is recorded.
    const other = await registerUser(ctx.app);
    expect(
      (await callFrom(ctx.app, from, 'DELETE', '/api/works', { token: other.token, body: { ids: [first] } })).status,
    ).toBe(404);

    const { list, total } = await page({ category: 'work', ip: from, pageSize: 100 });
    expect(total).toBe(6);
    newestFirst(list);
    const of = (id: string) =>
      list
        .filter((entry) => entry.targetId === id)
        .map(({ action, detail }) => ({ action, detail }))
        .reverse();
    expect(of(first)).toEqual([
      { action: 'work.publish', detail: { wasPublic: false, hidePrompt: false } },
      { action: 'work.publish', detail: { wasPublic: true, hidePrompt: true } },
      { action: 'work.unpublish', detail: { wasPublic: true, hidePrompt: false } },
      {
        action: 'work.delete',
        detail: { generationId: expect.any(String), public: false, prompt: expect.any(String) },
      },
    ]);
    expect(of(second).map((entry) => [entry.action, entry.detail.public])).toEqual([
      ['work.publish', undefined],
      ['work.delete', true],
    ]);
    for (const entry of list) {
      expect(entry).toMatchObject({ userId: ctx.user.userId, role: 'user', targetType: 'work', ip: from });
    }
  });

  it("records an admin's credit change on both sides: the holder's balance and the admin's request", async () => {
    const from = '192.0.2.50';
    const grant = await callFrom(ctx.app, from, 'POST', '/api/admin/users/credits', {
      token: ctx.admin,
      body: { userId: ctx.user.userId, amount: 50, remark: '活动奖励' },
    });
    expect(grant.body).toMatchObject({ code: 0, data: { credits: 148 } });

    expect(await only({ action: 'credits.change', ip: from })).toMatchObject({
      userId: ctx.user.userId,
      role: 'user',
      targetType: 'user',
      targetId: ctx.user.userId,
      detail: { delta: 50, balance: 148, reason: 'grant', ref: { grantedBy: adminId, remark: '活动奖励' } },
    });
    expect(await only({ action: 'admin.request', ip: from })).toMatchObject({
      userId: adminId,
      role: 'admin',
      targetType: 'user',
      targetId: ctx.user.userId,
      detail: {
        method: 'POST',
        route: '/api/admin/users/credits',
        status: 200,
        body: { userId: ctx.user.userId, amount: 50, remark: '活动奖励' },
      },
    });
    // The admin's entries are found by the user they concern, too.
    const concerning = await page({ userId: ctx.user.userId, category: 'credits', pageSize: 100 });
    expect(concerning.list.map((entry) => entry.detail.reason).sort()).toEqual(['charge', 'grant']);

    // A refused admin request is recorded with what the admin was told.
    const missing = await callFrom(ctx.app, '192.0.2.51', 'POST', '/api/admin/users/credits', {
      token: ctx.admin,
      body: { userId: 'no-such-user', amount: 5 },
    });
    expect(missing.body).toMatchObject({ code: 404, msg: '用户不存在' });
    expect(await only({ ip: '192.0.2.51' })).toMatchObject({
      action: 'admin.request',
      targetId: 'no-such-user',
      detail: { status: 404, error: { code: 404, msg: '用户不存在' } },
    });
  });

  it('records admin actions with passwords and secrets hidden, and no reads', async () => {
    const from = '192.0.2.60';
    const created = await callFrom(ctx.app, from, 'POST', '/api/admin/backends', {
      token: ctx.admin,
      body: {
        name: '审计后端',
        kind: 'sdwebui',
        baseUrl: 'http://127.0.0.1:9',
        username: 'sd-user',
        secret: 'hunter2-secret',
        enabled: false,
      },
    });
    expect(created.body.code, created.body.msg).toBe(0);
    const backendId = created.body.data.id;
    expect(
      (await callFrom(ctx.app, from, 'DELETE', `/api/admin/backends/${backendId}`, { token: ctx.admin })).body.code,
    ).toBe(0);
    // Reads are not actions: none of these is recorded.
    await callFrom(ctx.app, from, 'GET', '/api/admin/backends', { token: ctx.admin });
    await callFrom(ctx.app, from, 'GET', '/api/admin/users', { token: ctx.admin });

    const { list } = await page({ ip: from, pageSize: 100 });
    const requests = list.map(({ action, detail }) => ({ action, ...detail })).reverse();
    expect(requests).toEqual([
      expect.objectContaining({
        action: 'admin.request',
        method: 'POST',
        route: '/api/admin/backends',
        status: 200,
        body: expect.objectContaining({ name: '审计后端', username: 'sd-user', secret: '[已隐去]' }),
      }),
      expect.objectContaining({
        action: 'admin.request',
        method: 'DELETE',
        route: '/api/admin/backends/:id',
        params: { id: backendId },
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain('hunter2');
  });

  it('records a refused admin request whose fields are too long for the columns, beside the other entries', async () => {
    // The body failed validation, so the entry names the over-long user id as sent: kept, cut to the column's size.
    const longId = `u${'x'.repeat(99)}`;
    const refused = await callFrom(ctx.app, '192.0.2.70', 'POST', '/api/admin/users/credits', {
      token: ctx.admin,
      body: { userId: longId, amount: 1 },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: -1, msg: '用户编号格式不正确' } });
    await callFrom(ctx.app, '192.0.2.70', 'POST', '/api/auth/account', {
      body: { account: ctx.user.account, password: PASSWORD },
    });
    const { list } = await page({ ip: '192.0.2.70', pageSize: 100 });
    expect(list.map((entry) => entry.action).sort()).toEqual(['admin.request', 'auth.login']);
    const request = list.find((entry) => entry.action === 'admin.request') as AuditEntry;
    expect(request.targetId).toBe(longId.slice(0, 64));
    expect(request.detail).toMatchObject({
      status: 400,
      error: { code: -1, msg: '用户编号格式不正确' },
      body: { userId: longId },
    });
    expect(ctx.app.services.audit.recorder.stats().dropped).toBe(0);
  });

  it('records generations made with a personal API key under that key', async () => {
    const created = await ctx.app.call('POST', '/api/user/apiKeys', {
      token: ctx.user.token,
      body: { name: '审计脚本', scopes: ['generate'] },
    });
    const { id: keyId, key } = created.body.data;
    const submit = await callFrom(ctx.app, '198.51.100.40', 'POST', '/api/generate/task', {
      token: key,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain at dawn', custom: '1' }],
        parameters: SMALL,
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    expect((await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId)).final.status).toBe('succeeded');
    await flushAudit(ctx.app);

    const { list } = await page({ apiKeyId: keyId, pageSize: 100 });
    expect(list.map((entry) => entry.action).sort()).toEqual([
      'credits.change',
      'generation.submit',
      'generation.succeeded',
    ]);
    for (const entry of list)
      expect(entry).toMatchObject({ apiKeyId: keyId, userId: ctx.user.userId, ip: '198.51.100.40' });
    expect(list.find((entry) => entry.action === 'generation.submit')?.detail.prompt).toContain('mountain at dawn');
  });
});
