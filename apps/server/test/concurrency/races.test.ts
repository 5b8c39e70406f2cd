import { beforeAll, expect, it } from 'vitest';
import { creditsOf, demoTemplate, generateBody, waitForEnd, waitForStatus } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser, type TestUser, uniqueMobile } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const TINY = { width: 256, height: 256, steps: 6 };
const MAX_QUEUED = 5;
const SMS_LOCKED = '验证码错误次数过多，短信验证已临时锁定，请 15 分钟后再试';

/**
 * Rules that need one answer however many requests arrive at once. SQLite serialises writers, PostgreSQL's
 * READ COMMITTED does not: each rule must hold on both.
 */
describeServer('concurrency: limits hold under parallel requests', () => {
  const ctx = useTestApp({
    config: { queue: { maxRunningPerUser: 1, maxQueuedPerUser: MAX_QUEUED, maxAttempts: 3 } },
    admin: true,
  });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  let twoStep: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    const someone = await registerUser(ctx.app);
    ink = await demoTemplate(ctx.app, someone.token, '水墨山水');
    twoStep = await demoTemplate(ctx.app, someone.token, '场景化主图');
  });

  const post = (url: string, token: string, body: object) => ctx.app.call('POST', url, { token, body });

  it('sends one SMS to a mobile however many sendCode requests arrive at once, over two API apps', async () => {
    const mobile = uniqueMobile();
    const other = await ctx.app.sibling();
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? ctx.app : other).call('POST', '/api/auth/sendCode', { body: { mobile } }),
        ),
      );

      const sent = [...ctx.app.logLines, ...other.logLines].filter((line) => line.includes(`SMS code for ${mobile}:`));
      expect(sent).toHaveLength(1);
      expect(answers.filter((a) => a.body.code === 0)).toHaveLength(1);
      const refused = answers.filter((a) => a.body.code !== 0);
      expect(refused).toHaveLength(29);
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        const seconds = Number(/^验证码发送过于频繁，请 (\d+) 秒后再试$/.exec(answer.body.msg)?.[1]);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
      }
    } finally {
      await other.close();
    }
  });

  it('checks at most 5 guesses of one SMS code, however many arrive at once', async () => {
    const mobile = uniqueMobile();
    expect((await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile } })).body.code).toBe(0);
    const right = ctx.app.smsCode(mobile);
    const wrong = right === '000000' ? '111111' : '000000';
    const guesses = [...Array.from({ length: 39 }, () => wrong), right];

    const answers = await Promise.all(
      guesses.map((code) => ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code } })),
    );

    const stillTrying = answers.map((a) => a.body.msg).filter((msg) => msg.startsWith('验证码错误，还可尝试'));
    // Each checked wrong guess counts once: 4, 3, 2, 1 tries left, never the same count twice.
    expect(new Set(stillTrying).size).toBe(stillTrying.length);
    expect(stillTrying.length).toBeLessThanOrEqual(4);
    // The right code sent last is refused once 5 guesses were checked; an unregistered mobile answers 405.
    const checked = answers.filter((a) => a.body.code === 405 || a.body.msg.startsWith('验证码错误，还可尝试'));
    expect(checked.length).toBeLessThanOrEqual(5);
    const again = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: right } });
    expect(again.body.code).toBe(-1);
  });

  it('refuses the right SMS code once 5 wrong guesses were checked at once', async () => {
    const mobile = uniqueMobile();
    expect((await ctx.app.call('POST', '/api/auth/sendCode', { body: { mobile } })).body.code).toBe(0);
    const right = ctx.app.smsCode(mobile);
    const wrong = right === '000000' ? '111111' : '000000';

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: wrong } })),
    );

    const messages = answers.map((a) => a.body.msg);
    // Each checked guess takes one of the 5 tries: the tries left count down, never the same count twice. The try
    // that reaches LOGIN_MAX_FAILURES on this mobile answers with the SMS lock instead, so one count may be missing.
    const tryingAgain = messages.filter((msg) => msg.startsWith('验证码错误，还可尝试'));
    expect(new Set(tryingAgain).size).toBe(tryingAgain.length);
    for (const msg of tryingAgain) expect(msg).toMatch(/^验证码错误，还可尝试 [1-4] 次$/);
    expect(tryingAgain.length).toBeGreaterThanOrEqual(3);
    // The rest find the code used up, or SMS login locked.
    const refusals = new Set(['验证码错误次数过多，请重新获取', SMS_LOCKED]);
    for (const msg of messages.filter((m) => !m.startsWith('验证码错误，还可尝试'))) expect(refusals).toContain(msg);
    const late = await ctx.app.call('POST', '/api/auth/mobile', { body: { mobile, code: right } });
    expect(late.body.code).toBe(-1);
    expect(refusals).toContain(late.body.msg);
  });

  it('accepts one of 8 simultaneous next steps on a finished generation and charges it once', async () => {
    const user = await registerUser(ctx.app);
    const first = await post('/api/generate/task', user.token, generateBody(twoStep, TINY));
    expect(first.body.code, first.body.msg).toBe(0);
    const { generateId } = first.body.data;
    const { final } = await waitForEnd(ctx.app, user.token, generateId);
    const before = await creditsOf(ctx.app, user.token);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('/api/generate/task/step', user.token, {
          generateId,
          imageWorkId: final.images[0].workId,
          stepIndex: 1,
          parameters: TINY,
        }),
      ),
    );

    const accepted = answers.filter((a) => a.body.code === 0);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.body.data).toMatchObject({ generateId, currentStepNum: 2 });
    for (const refused of answers.filter((a) => a.body.code !== 0)) {
      expect(refused.body).toMatchObject({ code: -1, msg: '当前步骤还在生成中，请等待完成后再进行下一步' });
    }
    const next = await waitForEnd(ctx.app, user.token, generateId);
    expect(next.final).toMatchObject({ status: 'succeeded', currentStepNum: 2 });
    const jobs = await ctx.app.db
      .selectFrom('generation_jobs')
      .select('id')
      .where('generation_id', '=', generateId)
      .execute();
    expect(jobs).toHaveLength(2);
    expect(await creditsOf(ctx.app, user.token)).toBe(before - 1);
  });

  it(`keeps at most ${MAX_QUEUED} jobs of one user waiting when 30 are submitted at once`, async () => {
    const user = await registerUser(ctx.app);
    // One long job holds the user's running slot, so every accepted submit waits in line.
    const long = await post(
      '/api/generate/task',
      user.token,
      generateBody(ink, { width: 1024, height: 1024, steps: 50, batchSize: 4 }),
    );
    expect(long.body.code, long.body.msg).toBe(0);
    await waitForStatus(ctx.app, user.token, long.body.data.generateId, 'running');
    const before = await creditsOf(ctx.app, user.token);

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => post('/api/generate/task', user.token, generateBody(ink, TINY))),
    );

    const accepted = answers.filter((a) => a.body.code === 0);
    expect(accepted).toHaveLength(MAX_QUEUED);
    for (const refused of answers.filter((a) => a.body.code !== 0)) {
      expect(refused.body).toMatchObject({
        code: -1,
        msg: `排队中的任务已达上限（${MAX_QUEUED} 个），请等当前任务开始后再提交`,
      });
    }
    expect(await creditsOf(ctx.app, user.token)).toBe(before - MAX_QUEUED);

    expect(
      (await post('/api/generate/task/interrupt', user.token, { generateId: long.body.data.generateId })).body.code,
    ).toBe(0);
    for (const a of accepted) await waitForEnd(ctx.app, user.token, a.body.data.generateId);
  });

  it('accepts exactly as many simultaneous submits as the credits pay for, never going below zero', async () => {
    const user = await registerUser(ctx.app);
    const predict = await post('/api/generate/task/predict', user.token, generateBody(ink, TINY));
    const { cost, credits } = predict.body.data as { cost: number; credits: number };
    const affordable = 3;
    const grant = await post('/api/admin/users/credits', ctx.admin, {
      userId: user.userId,
      amount: affordable * cost - credits,
    });
    expect(grant.body).toMatchObject({ code: 0, data: { credits: affordable * cost } });

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post('/api/generate/task', user.token, generateBody(ink, TINY))),
    );

    const accepted = answers.filter((a) => a.body.code === 0);
    expect(accepted).toHaveLength(affordable);
    for (const refused of answers.filter((a) => a.body.code !== 0)) expect(refused.body.code).toBe(10004);
    expect(await creditsOf(ctx.app, user.token)).toBe(0);
    for (const a of accepted) await waitForEnd(ctx.app, user.token, a.body.data.generateId);
    expect(await creditsOf(ctx.app, user.token)).toBeGreaterThanOrEqual(0);
  });

  async function newInviteCode(maxUses: number, codeType = '01'): Promise<string> {
    const res = await post('/api/admin/invite/codes', ctx.admin, { codeType, maxUses });
    expect(res.body.code).toBe(0);
    return res.body.data.code;
  }

  async function usesOf(codes: string[]): Promise<number[]> {
    const list = await ctx.app.call('GET', '/api/admin/invite/codes?current=1&pageSize=100', { token: ctx.admin });
    return codes.map((code) => list.body.data.list.find((item: any) => item.code === code).usedCount);
  }

  it('lets one user redeem one invite code, even with two codes sent at once', async () => {
    const user: TestUser = await registerUser(ctx.app);
    const [a, b] = [await newInviteCode(10, '01'), await newInviteCode(10, '02')];

    const answers = await Promise.all([
      post('/api/user/perfectInfo', user.token, { nickname: '抢码人', inviteCode: a }),
      post('/api/user/invite/code', user.token, { inviteCode: b }),
      post('/api/user/invite/code', user.token, { inviteCode: a }),
      post('/api/user/perfectInfo', user.token, { nickname: '抢码人', inviteCode: b }),
    ]);

    const uses = await usesOf([a, b]);
    expect(uses[0]! + uses[1]!).toBe(1);
    const held = uses[0] === 1 ? '01' : '02';
    for (const answer of answers) {
      if (answer.body.code === 0) expect(answer.body.data).toEqual({ invite: true, codeType: held });
      else expect(answer.body).toMatchObject({ code: -1, msg: '你已使用过邀请码' });
    }
    const status = await ctx.app.call('GET', '/api/user/status', { token: user.token });
    expect(status.body.data).toEqual({ invite: true, codeType: held });
  });

  it('gives the last 3 uses of an invite code to exactly 3 of 10 users redeeming at once', async () => {
    const code = await newInviteCode(5);
    await registerUser(ctx.app, { inviteCode: code });
    await registerUser(ctx.app, { inviteCode: code });
    const users = await Promise.all(Array.from({ length: 10 }, () => registerUser(ctx.app)));

    const answers = await Promise.all(
      users.map((user) => post('/api/user/invite/code', user.token, { inviteCode: code })),
    );

    expect(answers.filter((a) => a.body.code === 0)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.body.code !== 0)) {
      expect(refused.body).toMatchObject({ code: -1, msg: '邀请码无效' });
    }
    expect(await usesOf([code])).toEqual([5]);
  });
});
