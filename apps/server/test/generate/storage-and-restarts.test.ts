import sharp from 'sharp';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin, SCALE_OUT, TEST_DB } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd, waitForStatus } from './generation-helpers.js';

const DISK_FULL = '服务器存储空间已满，请联系管理员';

/** The error a write to a full file system rejects with. */
function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
}

describeServer('generate: a full disk, stops and crashes', () => {
  // No grace period: a restart stops a running job at once, as a stop outlasting the grace period does.
  const ctx = useTestApp({ config: { shutdownGraceMs: 0 }, users: { user: { nickname: '画师' } } });
  let ink: Awaited<ReturnType<typeof demoTemplate>>;
  beforeAll(async () => {
    ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const submit = async (parameters: object) => {
    const res = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: generateBody(ink, parameters),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    return res.body.data.generateId as string;
  };

  /** Storage writes fail like a full disk; `room` writes under works/ still fit first. */
  const fillStorage = (room = 0) => {
    const storage = ctx.app.services.storage;
    const put = storage.put.bind(storage);
    let left = room;
    vi.spyOn(storage, 'put').mockImplementation(async (key, bytes) => {
      if (!key.startsWith('works/') || left-- <= 0) throw enospc();
      return put(key, bytes);
    });
  };

  const upload = async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
      .png()
      .toBuffer();
    const body = multipartBody([{ filename: 'a.png', contentType: 'image/png', bytes: png }]);
    const res = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${ctx.user.token}` },
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('ends a job at once when the storage fills up: stored images kept, the rest refunded', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    // Room for one work's original; its thumbnail, encoded after it, finds the disk full whenever it comes, and
    // would be made from the original when asked for.
    fillStorage(1);
    const generateId = await submit({ width: 256, height: 256, steps: 6, batchSize: 4, seed: 40 });
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final).toMatchObject({
      status: 'failed',
      message: `${DISK_FULL}；已完成的图片已保留，其余算力已退回`,
    });
    expect(final.images).toHaveLength(1);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 1);
    const works = await ctx.app.db.selectFrom('works').select('id').where('generation_id', '=', generateId).execute();
    expect(works.map((w) => w.id)).toEqual(final.images.map((image: { workId: string }) => image.workId));
    const unfinished = await ctx.app.call('GET', '/api/generate/task/unfinish/task', { token: ctx.user.token });
    expect(unfinished.body.data).toBeNull();
  });

  it('answers uploads with the storage-full message and health with down, while login and nickname still work', async () => {
    const adminToken = await loginAdmin(ctx.app);
    fillStorage();
    expect(await upload()).toEqual({ status: 507, body: { code: -1, msg: DISK_FULL, data: null } });
    const login = await ctx.app.call('POST', '/api/auth/account', {
      body: { account: ctx.user.account, password: ctx.user.password },
    });
    expect(login.body.code).toBe(0);
    const nickname = await ctx.app.call('POST', '/api/user/update/nickname', {
      token: ctx.user.token,
      body: { nickname: '新昵称' },
    });
    expect(nickname.body.code).toBe(0);

    // Local storage's probe writes one fixed file, so a full disk shows in health; a bucket's probe (scale-out)
    // is a HEAD that writes nothing, so a full bucket shows on the next upload only.
    if (!SCALE_OUT) {
      const anonymous = await ctx.app.call('GET', '/api/health');
      expect(anonymous).toEqual({ status: 503, body: { code: -1, msg: '服务暂不可用', data: { status: 'down' } } });
      const forAdmin = await ctx.app.call('GET', '/api/health', { token: adminToken });
      expect(forAdmin.status).toBe(503);
      expect(forAdmin.body.data).toMatchObject({
        status: 'down',
        db: TEST_DB,
        checks: { database: 'ok', storage: 'down' },
      });
    }

    vi.restoreAllMocks();
    expect(await ctx.app.call('GET', '/api/health')).toEqual({
      status: 200,
      body: { code: 0, msg: 'ok', data: { status: 'ok' } },
    });
    expect((await ctx.app.call('GET', '/api/health', { token: adminToken })).body.data).toMatchObject({
      status: 'ok',
      db: TEST_DB,
      checks: { database: 'ok', storage: 'ok' },
    });
    expect((await upload()).body.code).toBe(0);
    const generateId = await submit({ width: 256, height: 256, steps: 6, batchSize: 2 });
    expect((await waitForEnd(ctx.app, ctx.user.token, generateId)).final.status).toBe('succeeded');
  });

  it('tells an ordinary user only up or down', async () => {
    const res = await ctx.app.call('GET', '/api/health', { token: ctx.user.token });
    expect(res.body.data).toEqual({ status: 'ok' });
  });

  it('a stop mid-generation keeps the finished images and paints only the rest after the restart', async () => {
    const before = await creditsOf(ctx.app, ctx.user.token);
    const generateId = await submit({ width: 512, height: 512, steps: 40, batchSize: 4, seed: 700 });
    // Past the first image of the batch.
    await waitForStatus(ctx.app, ctx.user.token, generateId, 'running', 30);
    ctx.app = await ctx.app.restart();
    const first = await ctx.app.call('POST', '/api/generate/task/progress', {
      token: ctx.user.token,
      body: { generateId },
    });
    expect(first.body.data.images.length).toBeGreaterThanOrEqual(1);
    const { final, seen } = await waitForEnd(ctx.app, ctx.user.token, generateId, 80_000);
    expect([first.body.data, ...seen].map((progress) => progress.status)).not.toContain('interrupted');
    expect(final.status).toBe('succeeded');
    expect(final.images.map((image: { seed: number }) => image.seed)).toEqual([700, 701, 702, 703]);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(before - 4);
    const works = await ctx.app.db.selectFrom('works').select('seed').where('generation_id', '=', generateId).execute();
    expect(works).toHaveLength(4);
    // Four 512² images at 40 steps on the CPU engine, plus a restart: on a busy 2-core machine this outlasts 30 s.
  }, 90_000);

  it('continues a job a crash left running with images stored: they show at once and only the rest is painted', async () => {
    const generateId = await submit({ width: 256, height: 256, steps: 6, batchSize: 4, seed: 900 });
    expect((await waitForEnd(ctx.app, ctx.user.token, generateId)).final.status).toBe('succeeded');
    const credits = await creditsOf(ctx.app, ctx.user.token);
    // The state a crash while storing leaves: two works stored, the job still marked running.
    const { current_job_id: jobId } = await ctx.app.db
      .selectFrom('generations')
      .select('current_job_id')
      .where('id', '=', generateId)
      .executeTakeFirstOrThrow();
    const works = await ctx.app.db
      .selectFrom('works')
      .select(['id', 'seed'])
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    await ctx.app.db
      .deleteFrom('works')
      .where(
        'id',
        'in',
        works.slice(2).map((w) => w.id),
      )
      .execute();
    await ctx.app.db.updateTable('generation_jobs').set({ status: 'running' }).where('id', '=', jobId).execute();
    await ctx.app.db.updateTable('generations').set({ status: 'running' }).where('id', '=', generateId).execute();

    ctx.app = await ctx.app.restart();
    const first = await ctx.app.call('POST', '/api/generate/task/progress', {
      token: ctx.user.token,
      body: { generateId },
    });
    expect(first.body.data.images.slice(0, 2).map((image: { workId: string }) => image.workId)).toEqual(
      works.slice(0, 2).map((w) => w.id),
    );
    const { final } = await waitForEnd(ctx.app, ctx.user.token, generateId);
    expect(final.status).toBe('succeeded');
    expect(final.images.map((image: { seed: number }) => image.seed)).toEqual([900, 901, 902, 903]);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits);
  });
});
