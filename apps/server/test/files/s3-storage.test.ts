import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { uploadPng } from '../helpers/multipart.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { readZip } from '../helpers/zip.js';
import { seedWorks } from '../works/work-fixtures.js';

const SMALL = { width: 256, height: 256, steps: 8 };

describeServer('files: a user’s uploads and works kept in S3-compatible storage', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3?.close());
  const ctx = useTestApp({ config: () => ({ storage: s3.storageConfig }), users: ['user'] });

  const get = async (url: string, token?: string) => {
    const res = await ctx.app.app.inject({
      method: 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload, json: () => res.json() };
  };

  let photo: { fileId: string; url: string };
  let work: { workId: string; url: string; thumbUrl: string };

  it('keeps an upload in the bucket and shows it to its owner through the signed link', async () => {
    const uploaded = await uploadPng(ctx.app, ctx.user.token, { width: 64, height: 80 });
    expect(uploaded).toMatchObject({ code: 0, data: { fileId: expect.any(String) } });
    photo = uploaded.data;
    expect(await s3.keys('uploads/')).toEqual([`uploads/${photo.fileId}.webp`]);

    const shown = await get(photo.url);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('image/webp');
    expect(await sharp(shown.bytes).metadata()).toMatchObject({ format: 'webp', width: 64, height: 80 });
  });

  it('paints over the uploaded photo on the built-in engine and serves the work from the bucket', async () => {
    const idPhoto = await demoTemplate(ctx.app, ctx.user.token, '蓝底证件照');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: generateBody(idPhoto, { ...SMALL, initImageFileId: photo.fileId }),
    });
    expect(submit.body.code, submit.body.msg).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
    expect(final.status).toBe('succeeded');
    work = final.images[0];
    // The original and its thumbnail with the result; the marked copy downloads serve follows once it is shown.
    await expect
      .poll(() => s3.keys(`works/${work.workId}`), { timeout: 10_000 })
      .toEqual([`works/${work.workId}.marked.png`, `works/${work.workId}.png`, `works/${work.workId}.thumb.webp`]);

    const original = await get(work.url);
    expect(original.status).toBe(200);
    expect(original.type).toBe('image/png');
    expect(await sharp(original.bytes).metadata()).toMatchObject({ format: 'png', width: 256, height: 256 });
    const thumb = await get(work.thumbUrl);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.bytes).metadata()).format).toBe('webp');
    const unsigned = await get(`/api/works/image/${work.workId}`);
    expect(unsigned.status).toBe(403);
    expect(unsigned.json()).toMatchObject({ code: -1, msg: '图片链接已失效，请刷新页面' });
  });

  it('downloads a zip of works, each original streamed from the bucket as stored', async () => {
    const [seeded] = await seedWorks(ctx.app, ctx.user.userId, [{ prompt: 'seeded on S3' }]);
    const zip = await get(`/api/files/downloadZip?ids=${work.workId},${seeded}`, ctx.user.token);
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');
    const entries = await readZip(zip.bytes);
    expect(entries.size).toBe(2);
    for (const id of [work.workId, seeded]) {
      const detail = await ctx.app.call('GET', `/api/works/profile/detail?id=${id}`, { token: ctx.user.token });
      const entry = [...entries].find(([name]) => name.endsWith(`_${id}.png`));
      expect(entry?.[1].equals((await get(detail.body.data.url)).bytes)).toBe(true);
    }
  });

  it('deletes a work and its objects leave the bucket; the other works stay', async () => {
    const before = await s3.keys('works/');
    const del = await ctx.app.call('DELETE', '/api/works', { token: ctx.user.token, body: { ids: [work.workId] } });
    expect(del.body).toMatchObject({ code: 0, msg: '删除成功' });
    expect(await s3.keys(`works/${work.workId}`)).toEqual([]);
    expect(await s3.keys('works/')).toEqual(before.filter((key) => !key.startsWith(`works/${work.workId}.`)));
    const gone = await get(work.url);
    expect(gone.status).toBe(404);
    expect(gone.json()).toMatchObject({ code: 404, msg: '作品不存在' });
  });

  it('reports the bucket healthy to an admin and leaves no probe object behind', async () => {
    const health = await ctx.app.call('GET', '/api/health', { token: await loginAdmin(ctx.app) });
    expect(health.body.data).toMatchObject({ status: 'ok', checks: { storage: 'ok' } });
    expect(await s3.keys('health/')).toEqual([]);
  });

  it('probes the bucket without writing: 20 health checks add no object and no version', async () => {
    // The uploads and works of the tests above were seen as writes: the count below can see one.
    expect(s3.changes.some((change) => change.startsWith('ObjectCreated:'))).toBe(true);
    const before = s3.changes.length;
    for (let i = 0; i < 20; i++) {
      expect(await ctx.app.call('GET', '/api/health')).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    }
    expect(s3.changes.slice(before)).toEqual([]);
    expect(await s3.keys('health/')).toEqual([]);
  });
});
