import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { SCALE_OUT, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd, waitForStatus } from './generation-helpers.js';

const TINY = { width: 256, height: 256, steps: 6 };
/** Each test runs a dozen paintings one after another: on a loaded 2-core machine that outlasts the suite's 30 s. */
const QUEUE_TEST_TIMEOUT_MS = 90_000;

describeServer('generate: fair queue, limits and restarts', () => {
  const ctx = useTestApp({
    config: {
      queue: { maxRunningPerUser: 1, maxQueuedPerUser: 4, maxAttempts: 3 },
      // The restart below stops the running job at once, as a stop outlasting the grace period does.
      shutdownGraceMs: 0,
    },
    users: { alice: { nickname: '爱丽丝' }, bob: { nickname: '小鲍' } },
  });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    ink = await demoTemplate(ctx.app, ctx.alice.token, '水墨山水');
  });

  const submit = async (user: TestUser, parameters: object = TINY) => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: user.token,
      body: generateBody(ink, parameters),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId as string;
  };

  it(
    'takes turns between users: a later user does not wait behind all of an earlier user’s jobs',
    async () => {
      // Alice's first job is long enough that everything else is in line before it ends, however slow the machine:
      // with a short one, her next jobs could start and end before Bob's submissions arrived.
      const aliceIds = [await submit(ctx.alice, { width: 512, height: 512, steps: 30 })];
      for (let i = 0; i < 3; i++) aliceIds.push(await submit(ctx.alice, { ...TINY, steps: 12 }));
      const bobIds = [await submit(ctx.bob), await submit(ctx.bob)];
      for (const id of aliceIds) await waitForEnd(ctx.app, ctx.alice.token, id);
      for (const id of bobIds) await waitForEnd(ctx.app, ctx.bob.token, id);

      const jobs = await ctx.app.db
        .selectFrom('generation_jobs')
        .select(['user_id', 'started_at', 'status'])
        .where('generation_id', 'in', [...aliceIds, ...bobIds])
        .orderBy('started_at')
        .execute();
      expect(jobs.every((job) => job.status === 'succeeded')).toBe(true);
      const order = jobs.map((job) => (job.user_id === ctx.alice.userId ? 'A' : 'B')).join('');
      // Alice's first job ran alone, and her second may come before Bob's first (embedded mode lets users already
      // waiting go first; in scale-out mode Bob's first was handed out while Alice's first ran); from then on the two
      // take turns until Bob has none left.
      expect(order).toMatch(/^AA?(BA)+A*$/);
      expect(order.replaceAll('A', '')).toBe('BB');
    },
    QUEUE_TEST_TIMEOUT_MS,
  );

  it(
    'shows each waiting job its place in line and refuses more than the per-user limit',
    async () => {
      const running = await submit(ctx.alice, { ...TINY, steps: 30 });
      const waiting = [];
      for (let i = 0; i < 4; i++) waiting.push(await submit(ctx.alice));
      const full = await ctx.app.call('POST', '/api/generate/task', {
        token: ctx.alice.token,
        body: generateBody(ink, TINY),
      });
      expect(full.body).toMatchObject({ code: -1, msg: '排队中的任务已达上限（4 个），请等当前任务开始后再提交' });
      const bobs = await submit(ctx.bob);

      const place = async (user: TestUser, generateId: string) =>
        (await ctx.app.call('POST', '/api/generate/task/progress', { token: user.token, body: { generateId } })).body
          .data;
      expect((await place(ctx.alice, waiting[0]!)).queuePosition).toBeGreaterThanOrEqual(1);
      const bobPlace = await place(ctx.bob, bobs);
      expect(bobPlace.status).toBe('queued');
      // Bob joined last but is not behind Alice's four waiting jobs.
      expect(bobPlace.queuePosition).toBeLessThanOrEqual(2);
      expect(bobPlace.etaSeconds).toBeGreaterThan(0);
      const lastOfAlice = await place(ctx.alice, waiting[3]!);
      expect(lastOfAlice.queuePosition).toBeGreaterThan(bobPlace.queuePosition);

      for (const id of [running, ...waiting]) await waitForEnd(ctx.app, ctx.alice.token, id);
      await waitForEnd(ctx.app, ctx.bob.token, bobs);
    },
    QUEUE_TEST_TIMEOUT_MS,
  );

  it(
    'survives a restart: the running job starts again, queued ones run, nothing is charged twice',
    async () => {
      const before = await creditsOf(ctx.app, ctx.alice.token);
      const running = await submit(ctx.alice, { width: 512, height: 512, steps: 30, batchSize: 2 });
      const queued = await submit(ctx.alice, TINY);
      // A crashed process leaves a row marked running with no images: it must not hang either.
      const crashed = await submit(ctx.bob, TINY);
      const crashedJob = await ctx.app.db
        .selectFrom('generations')
        .select('current_job_id')
        .where('id', '=', crashed)
        .executeTakeFirstOrThrow();
      await ctx.app.db
        .updateTable('generation_jobs')
        .set({ status: 'running' })
        .where('id', '=', crashedJob.current_job_id)
        .execute();

      await waitForStatus(ctx.app, ctx.alice.token, running, 'running');
      const runningJob = await ctx.app.db
        .selectFrom('generations')
        .select('current_job_id')
        .where('id', '=', running)
        .executeTakeFirstOrThrow();
      const stopped = ctx.app;
      ctx.app = await ctx.app.restart();
      if (SCALE_OUT) {
        // The jobs never left BullMQ: the stopping worker handed its running job back for the next one.
        const handedBack = stopped.logLines.filter((line) => line.includes('generation job handed back to the queue'));
        expect(handedBack.some((line) => line.includes(runningJob.current_job_id))).toBe(true);
      } else {
        const recovered = ctx.app.logLines.filter((line) => line.includes('generation job recovered after restart'));
        expect(recovered).toHaveLength(3);
      }
      const first = await waitForEnd(ctx.app, ctx.alice.token, running, 40_000);
      expect(first.final).toMatchObject({ status: 'succeeded' });
      expect(first.final.images).toHaveLength(2);
      expect((await waitForEnd(ctx.app, ctx.alice.token, queued)).final.status).toBe('succeeded');
      expect((await waitForEnd(ctx.app, ctx.bob.token, crashed)).final.status).toBe('succeeded');
      expect(await creditsOf(ctx.app, ctx.alice.token)).toBe(before - 3);
      const works = await ctx.app.db.selectFrom('works').select('id').where('generation_id', '=', running).execute();
      expect(works).toHaveLength(2);
    },
    QUEUE_TEST_TIMEOUT_MS,
  );
});
