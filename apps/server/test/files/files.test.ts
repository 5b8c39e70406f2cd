import sharp from 'sharp';
import { expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 60 } } })
    .png()
    .toBuffer();

describeServer('files: image upload', () => {
  const ctx = useTestApp({ config: { uploadMaxBytes: 200 * 1024 }, users: ['user'] });

  const countFiles = async () =>
    Number(
      (await ctx.app.db.selectFrom('files').select(ctx.app.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow())
        .n,
    );

  async function upload(
    url: string,
    files: Parameters<typeof multipartBody>[0],
    token: string | null = ctx.user.token,
  ) {
    const body = multipartBody(files);
    const res = await ctx.app.app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('stores an image re-encoded as WebP and serves it back', async () => {
    const res = await upload('/api/files/upload', [
      { filename: 'a.png', contentType: 'image/png', bytes: await png(64, 48) },
    ]);
    expect(res.body).toMatchObject({ code: 0, data: { fileId: expect.any(String) } });
    expect(res.body.data.url).toMatch(new RegExp(`^/api/files/${res.body.data.fileId}\\?e=`));
    const image = await ctx.app.app.inject({ method: 'GET', url: res.body.data.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
  });

  it('checks the content, not the name: a text file called .png is refused', async () => {
    const res = await upload('/api/files/upload', [
      { filename: 'fake.png', contentType: 'image/png', bytes: Buffer.from('this is not an image at all') },
    ]);
    expect(res.body).toMatchObject({ code: -1, msg: '只能上传图片文件（PNG、JPEG、WebP、GIF）' });
  });

  it('refuses an oversized file with HTTP 413 and stores nothing', async () => {
    const before = await countFiles();
    const noisy = await sharp(Buffer.from(Array.from({ length: 400 * 400 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 400, height: 400, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(200 * 1024);
    const res = await upload('/api/files/upload', [{ filename: 'big.png', contentType: 'image/png', bytes: noisy }]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: -1, msg: '文件过大，单个文件不能超过 0.2 MB' });
    const after = await countFiles();
    expect(after).toBe(before);
  });

  it('uploads several files; one bad file among them stores none', async () => {
    const good = await upload('/api/files/uploads', [
      { filename: 'a.png', contentType: 'image/png', bytes: await png(10, 10) },
      { filename: 'b.png', contentType: 'image/png', bytes: await png(20, 20) },
    ]);
    expect(good.body.code).toBe(0);
    expect(good.body.data).toHaveLength(2);

    const before = await countFiles();
    const mixed = await upload('/api/files/uploads', [
      { filename: 'a.png', contentType: 'image/png', bytes: await png(10, 10) },
      { filename: 'b.txt', contentType: 'text/plain', bytes: Buffer.from('hello') },
    ]);
    expect(mixed.body.code).toBe(-1);
    const after = await countFiles();
    expect(after).toBe(before);
  });

  it('needs a login to upload', async () => {
    const res = await upload(
      '/api/files/upload',
      [{ filename: 'a.png', contentType: 'image/png', bytes: await png(8, 8) }],
      null,
    );
    expect(res.status).toBe(401);
  });

  it("sets an avatar from one's own upload only, never another user's", async () => {
    const mine = await upload('/api/files/upload', [
      { filename: 'me.png', contentType: 'image/png', bytes: await png(32, 32) },
    ]);
    const set = await ctx.app.call('POST', '/api/user/update/avatar', {
      token: ctx.user.token,
      body: { avatar: mine.body.data.fileId },
    });
    const avatar = `/api/files/${mine.body.data.fileId}`;
    expect(set.body).toMatchObject({ code: 0, msg: '设置成功', data: { avatar } });
    expect((await ctx.app.call('GET', '/api/user/currentUser', { token: ctx.user.token })).body.data.avatar).toBe(
      avatar,
    );

    const other = await registerUser(ctx.app);
    const stolen = await ctx.app.call('POST', '/api/user/update/avatar', {
      token: other.token,
      body: { avatar: mine.body.data.fileId },
    });
    expect(stolen.body).toMatchObject({ code: -1, msg: '头像文件不存在，请重新上传' });
    const viaProfile = await ctx.app.call('POST', '/api/user/perfectInfo', {
      token: other.token,
      body: { nickname: '别人', avatar: mine.body.data.fileId },
    });
    expect(viaProfile.body.code).toBe(-1);
  });

  it('answers 404 with its own message for a missing file', async () => {
    const res = await ctx.app.call('GET', '/api/files/doesnotexist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, msg: '文件不存在' });
  });
});
