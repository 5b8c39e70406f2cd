import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebhookRepository } from '../../src/features/webhooks/webhook.repository.js';
import { isoIn, nowIso } from '../../src/platform/ids.js';
import { waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, registerUser, SCALE_OUT } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { startReceiver } from './webhook-receiver.js';

const SMALL = { width: 256, height: 256, steps: 4 };
const POLL = { timeout: 20_000, interval: 50 };

describeServer('webhooks', () => {
  const ctx = useTestApp({
    config: {
      // The receivers listen on 127.0.0.1 over plain http; retries 0.2 s then 1.2 s apart.
      webhooks: { allowHttp: true, allowPrivate: true, timeoutMs: 3000, maxAttempts: 3, retryBaseMs: 200 },
    },
    users: ['user', 'other'],
  });
  let good: Awaited<ReturnType<typeof startReceiver>>;
  let broken: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    good = await startReceiver();
    broken = await startReceiver();
  });
  afterAll(async () => {
    await good.close();
    await broken.close();
  });

  const addEndpoint = async (token: string, body: object) => {
    const res = await ctx.app.call('POST', '/api/user/webhooks', { token, body });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data as { id: string; secret: string };
  };
  const deliveries = async (endpointId: string, token = ctx.user.token) => {
    const res = await ctx.app.call('GET', `/api/user/webhooks/${endpointId}/deliveries?pageSize=50`, { token });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data as { total: number; list: any[] };
  };
  const generate = async (token: string) => {
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token,
      body: {
        templateId: null,
        promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain', custom: '1' }],
        parameters: SMALL,
      },
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, token, submit.body.data.generateId);
    expect(final.status).toBe('succeeded');
    return final as { generateId: string; images: { workId: string }[] };
  };

  it('refuses bad endpoints with a Chinese message', async () => {
    const bad = async (body: object, msg: string, status = 400) => {
      const res = await ctx.app.call('POST', '/api/user/webhooks', { token: ctx.user.token, body });
      expect(res.status, msg).toBe(status);
      expect(res.body).toMatchObject({ code: -1, msg });
    };
    const events = ['generation.succeeded'];
    await bad({ url: 'ftp://example.com/hook', events }, '接收地址须以 https:// 开头');
    await bad({ url: 'not a url', events }, '接收地址须以 https:// 开头');
    await bad({ url: '', events }, '请填写接收地址');
    await bad({ url: `https://example.com/${'x'.repeat(500)}`, events }, '接收地址不能超过 500 个字符');
    await bad({ url: 'https://example.com/hook', events: [] }, '请至少选择一个事件');
    await bad(
      { url: 'https://example.com/hook', events: ['user.deleted'] },
      '事件类型只能是 generation.succeeded、generation.failed、work.published、order.paid 或 order.refunded',
    );
    await bad({ url: 'https://u:p@example.com/hook', events }, '接收地址不能包含用户名或密码', 200);
    await bad({ url: 'https://example.com/hook', events, allUsers: true }, '只有管理员可以接收所有用户的事件', 403);
  });

  it('answers 测试发送 at once with a signed webhook.test, and logs it', async () => {
    const endpoint = await addEndpoint(ctx.user.token, {
      url: good.url,
      events: ['work.published'],
      description: '测试',
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await ctx.app.call('GET', '/api/user/webhooks', { token: ctx.user.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: endpoint.id, url: good.url, events: ['work.published'], enabled: true }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret);

    const res = await ctx.app.call('POST', `/api/user/webhooks/${endpoint.id}/test`, { token: ctx.user.token });
    expect(res.body).toMatchObject({
      code: 0,
      msg: '测试发送成功',
      data: { success: true, statusCode: 200, error: null },
    });
    const [request] = good.of('webhook.test');
    expect(request).toBeDefined();
    const event = new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'webhook.test', userId: ctx.user.userId, data: { endpointId: endpoint.id } });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        request!.body,
        request!.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = await deliveries(endpoint.id);
    expect(log.list[0]).toMatchObject({
      eventType: 'webhook.test',
      status: 'succeeded',
      eventId: request!.headers['webhook-id'],
      attemptLog: [{ attempt: 1, statusCode: 200, error: null, responseExcerpt: 'ok' }],
    });

    broken.answer([500]);
    const failing = await addEndpoint(ctx.user.token, { url: broken.url, events: ['work.published'] });
    const failed = await ctx.app.call('POST', `/api/user/webhooks/${failing.id}/test`, { token: ctx.user.token });
    expect(failed.body).toMatchObject({
      code: 0,
      msg: '测试发送失败：接收地址应答 HTTP 500',
      data: { success: false, statusCode: 500 },
    });
    const failedLog = await deliveries(failing.id);
    expect(failedLog.list[0]).toMatchObject({ status: 'failed', nextAttemptAt: null, attempts: 1 });
    // Only the first characters of the answer are kept.
    expect(failedLog.list[0].attemptLog[0].responseExcerpt).toHaveLength(200);
    await ctx.app.call('DELETE', `/api/user/webhooks/${failing.id}`, { token: ctx.user.token });
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });

  it('lets one user 测试发送 5 times a minute, over every API process, and refuses the rest with a Chinese 429', async () => {
    good.answer([200]);
    const tester = await registerUser(ctx.app);
    const endpoint = await addEndpoint(tester.token, { url: good.url, events: ['work.published'] });
    const othersEndpoint = await addEndpoint(ctx.other.token, { url: good.url, events: ['work.published'] });
    const sent = good.of('webhook.test').length;
    // Scale-out: half the requests go through another API process; the count is kept in Redis for both.
    const second = SCALE_OUT ? await ctx.app.sibling() : ctx.app;
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? ctx.app : second).call('POST', `/api/user/webhooks/${endpoint.id}/test`, {
            token: tester.token,
          }),
        ),
      );
      const sentOk = answers.filter((res) => res.status === 200);
      const refused = answers.filter((res) => res.status === 429);
      expect(sentOk.map((res) => res.body.msg)).toEqual(Array(5).fill('测试发送成功'));
      expect(refused).toHaveLength(3);
      for (const res of refused) {
        expect(res.body).toEqual({
          code: -1,
          msg: expect.stringMatching(/^测试发送过于频繁（每分钟最多 5 次），请 \d+ 秒后再试$/),
          data: null,
        });
      }
      expect(good.of('webhook.test').length - sent).toBe(5);
      expect((await deliveries(endpoint.id, tester.token)).total).toBe(5);
      // Another user has an allowance of their own.
      const others = await second.call('POST', `/api/user/webhooks/${othersEndpoint.id}/test`, {
        token: ctx.other.token,
      });
      expect(others.body).toMatchObject({ code: 0, msg: '测试发送成功' });
    } finally {
      if (second !== ctx.app) await second.close();
    }
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: tester.token });
    await ctx.app.call('DELETE', `/api/user/webhooks/${othersEndpoint.id}`, { token: ctx.other.token });
  });

  it('refuses, when saved, a port that fetch will not connect to', async () => {
    const res = await ctx.app.call('POST', '/api/user/webhooks', {
      token: ctx.user.token,
      body: { url: 'http://127.0.0.1:6000/hook', events: ['work.published'] },
    });
    expect(res.body).toEqual({
      code: -1,
      msg: '接收地址不能使用端口 6000（出于安全原因，HTTP 客户端禁止连接该端口），请换一个端口',
      data: null,
    });
  });

  it('retries an endpoint that answers 500 then 200, and gives up on one that always fails', async () => {
    good.answer([500, 200]);
    broken.answer([503]);
    const flaky = await addEndpoint(ctx.user.token, {
      url: good.url,
      events: ['generation.succeeded', 'generation.failed'],
    });
    const down = await addEndpoint(ctx.user.token, { url: broken.url, events: ['generation.succeeded'] });
    // Another user's generations are not this user's events.
    await generate(ctx.other.token);
    const final = await generate(ctx.user.token);

    await expect.poll(() => good.of('generation.succeeded').length, POLL).toBe(2);
    const [first, second] = good.of('generation.succeeded');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    for (const request of [first!, second!]) {
      const event = new Webhook(flaky.secret).verify(request.body, request.headers as Record<string, string>);
      expect(event).toMatchObject({
        type: 'generation.succeeded',
        userId: ctx.user.userId,
        data: { generateId: final.generateId, status: 'succeeded', message: null, stepIndex: 0 },
      });
      const images = (event as { data: { images: { workId: string; url: string }[] } }).data.images;
      expect(images.map((i) => i.workId)).toEqual(final.images.map((i) => i.workId));
      // The signed link opens the original.
      const original = await ctx.app.app.inject({ method: 'GET', url: images[0]!.url });
      expect(original.headers['content-type']).toBe('image/png');
    }
    await expect.poll(async () => (await deliveries(flaky.id)).list[0]?.status, POLL).toBe('succeeded');
    const log = await deliveries(flaky.id);
    expect(log.total).toBe(1);
    expect(log.list[0]).toMatchObject({ eventType: 'generation.succeeded', attempts: 2, nextAttemptAt: null });
    expect(log.list[0].attemptLog.map((a: any) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(log.list[0].attemptLog[0].error).toBe('接收地址应答 HTTP 500');

    await expect.poll(async () => (await deliveries(down.id)).list[0]?.status, POLL).toBe('failed');
    const downLog = await deliveries(down.id);
    expect(downLog.list[0].attemptLog.map((a: any) => a.statusCode)).toEqual([503, 503, 503]);
    expect(broken.of('generation.succeeded')).toHaveLength(3);
    await ctx.app.call('DELETE', `/api/user/webhooks/${flaky.id}`, { token: ctx.user.token });
    await ctx.app.call('DELETE', `/api/user/webhooks/${down.id}`, { token: ctx.user.token });
  });

  it('sends work.published once per publication, also to an admin endpoint for all users', async () => {
    good.answer([200]);
    const mine = await addEndpoint(ctx.user.token, { url: good.url, events: ['work.published'] });
    const admin = await loginAdmin(ctx.app);
    const everyone = await addEndpoint(admin, { url: broken.url, events: ['work.published'], allUsers: true });
    broken.answer([200]);
    const final = await generate(ctx.user.token);
    const workId = final.images[0]!.workId;
    const publish = (hidePrompt: boolean) =>
      ctx.app.call('POST', '/api/works/publish', {
        token: ctx.user.token,
        body: { id: workId, public: true, hidePrompt },
      });
    expect((await publish(false)).body.code).toBe(0);
    // Changing 隐藏提示词 on a public work is not a new publication.
    expect((await publish(true)).body.code).toBe(0);

    await expect.poll(() => good.of('work.published').length, POLL).toBe(1);
    await expect.poll(() => broken.of('work.published').length, POLL).toBe(1);
    const event = new Webhook(mine.secret).verify(
      good.of('work.published')[0]!.body,
      good.of('work.published')[0]!.headers as Record<string, string>,
    );
    expect(event).toMatchObject({
      type: 'work.published',
      userId: ctx.user.userId,
      data: { workId, url: `/api/works/image/${workId}`, thumbUrl: `/api/works/thumb/${workId}` },
    });
    const request = broken.of('work.published')[0]!;
    expect(new Webhook(everyone.secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({
      data: { workId },
    });
    // Nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(good.of('work.published')).toHaveLength(1);
    await ctx.app.call('DELETE', `/api/user/webhooks/${mine.id}`, { token: ctx.user.token });
    await ctx.app.call('DELETE', `/api/user/webhooks/${everyone.id}`, { token: admin });
  });

  it('records one work.published when parallel requests publish the same work', async () => {
    const endpoint = await addEndpoint(ctx.user.token, { url: good.url, events: ['work.published'] });
    const final = await generate(ctx.user.token);
    const workId = final.images[0]!.workId;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ctx.app.call('POST', '/api/works/publish', {
          token: ctx.user.token,
          body: { id: workId, public: true, hidePrompt: i % 2 === 0 },
        }),
      ),
    );
    for (const answer of answers) expect(answer.body.code, answer.body.msg).toBe(0);
    const log = await deliveries(endpoint.id);
    expect(log.list.filter((delivery) => delivery.eventType === 'work.published')).toHaveLength(1);
    await expect.poll(() => good.of('work.published').filter((r) => r.body.includes(workId)).length, POLL).toBe(1);
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });

  it('changes and disables an endpoint; a disabled endpoint gets nothing', async () => {
    const endpoint = await addEndpoint(ctx.user.token, { url: 'https://example.com/hook', events: ['work.published'] });
    const changed = await ctx.app.call('PUT', `/api/user/webhooks/${endpoint.id}`, {
      token: ctx.user.token,
      body: { url: good.url, events: ['generation.failed', 'work.published'], enabled: false, description: '停用' },
    });
    expect(changed.body).toMatchObject({
      code: 0,
      msg: '修改成功',
      data: { url: good.url, events: ['generation.failed', 'work.published'], enabled: false, description: '停用' },
    });
    const badUrl = await ctx.app.call('PUT', `/api/user/webhooks/${endpoint.id}`, {
      token: ctx.user.token,
      body: { url: 'ftp://example.com' },
    });
    expect(badUrl.body).toMatchObject({ code: -1, msg: '接收地址须以 https:// 开头' });
    const before = good.received.length;
    const final = await generate(ctx.user.token);
    await ctx.app.call('POST', '/api/works/publish', {
      token: ctx.user.token,
      body: { id: final.images[0]!.workId, public: true, hidePrompt: false },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(good.received.length).toBe(before);
    expect((await deliveries(endpoint.id)).total).toBe(0);
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });

  it('resets the signing secret: the new one is shown once and signs from then on, the old one no longer verifies', async () => {
    const endpoint = await addEndpoint(ctx.user.token, { url: good.url, events: ['work.published'] });
    const res = await ctx.app.call('POST', `/api/user/webhooks/${endpoint.id}/secret`, { token: ctx.user.token });
    expect(res.body).toMatchObject({
      code: 0,
      msg: '签名密钥已重置，请立即复制保存',
      data: { id: endpoint.id, url: good.url, events: ['work.published'], enabled: true },
    });
    const secret = res.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(endpoint.secret);
    expect(
      JSON.stringify((await ctx.app.call('GET', '/api/user/webhooks', { token: ctx.user.token })).body),
    ).not.toContain(secret);

    const sent = good.of('webhook.test').length;
    const test = await ctx.app.call('POST', `/api/user/webhooks/${endpoint.id}/test`, { token: ctx.user.token });
    expect(test.body).toMatchObject({ code: 0, data: { success: true } });
    const request = good.of('webhook.test')[sent]!;
    const headers = request.headers as Record<string, string>;
    expect(new Webhook(secret).verify(request.body, headers)).toMatchObject({ data: { endpointId: endpoint.id } });
    expect(() => new Webhook(endpoint.secret).verify(request.body, headers)).toThrow();
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });

  it("keeps another user's endpoints invisible and untouchable (404)", async () => {
    const endpoint = await addEndpoint(ctx.user.token, { url: 'https://example.com/hook', events: ['work.published'] });
    expect((await ctx.app.call('GET', '/api/user/webhooks', { token: ctx.other.token })).body.data).toEqual([]);
    for (const [method, url, body] of [
      ['PUT', `/api/user/webhooks/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/api/user/webhooks/${endpoint.id}`, undefined],
      ['POST', `/api/user/webhooks/${endpoint.id}/test`, undefined],
      ['POST', `/api/user/webhooks/${endpoint.id}/secret`, undefined],
      ['GET', `/api/user/webhooks/${endpoint.id}/deliveries`, undefined],
    ] as const) {
      const res = await ctx.app.call(method, url, { token: ctx.other.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ code: 404, msg: '接收地址不存在或已删除', data: null });
    }
    const still = await ctx.app.call('GET', '/api/user/webhooks', { token: ctx.user.token });
    expect(still.body.data).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
    expect((await ctx.app.call('GET', '/api/user/webhooks')).status).toBe(401);
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });

  it('gives a due delivery to one sender only', async () => {
    const endpoint = await addEndpoint(ctx.user.token, { url: 'https://example.com/hook', events: ['work.published'] });
    // Due in an hour, so the app's own sender leaves it alone: the claims below are the only ones.
    const due = isoIn(3_600_000);
    await ctx.app.db
      .insertInto('webhook_deliveries')
      .values({
        id: 'claim-test',
        endpoint_id: endpoint.id,
        event_id: 'msg_claim',
        event_type: 'work.published',
        payload: '{}',
        status: 'pending',
        attempts: 0,
        next_attempt_at: due,
        created_at: nowIso(),
      })
      .execute();
    const senders = [1, 2, 3, 4].map(() => new WebhookRepository(ctx.app.db, ctx.app.config.database.kind));
    const claims = await Promise.all(senders.map((repo) => repo.claim('claim-test', due, isoIn(60_000))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)).toMatchObject({ attempts: 1, url: 'https://example.com/hook' });
    await ctx.app.call('DELETE', `/api/user/webhooks/${endpoint.id}`, { token: ctx.user.token });
  });
});
