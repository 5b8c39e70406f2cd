import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** A white square on black: its canny map has edges on the square's border and nothing inside. */
async function squareImage(): Promise<Buffer> {
  const square = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 160, height: 160, channels: 3, background: '#000000' } })
    .composite([{ input: square, left: 40, top: 40 }])
    .png()
    .toBuffer();
}

describeServer('generate: ControlNet preprocessor preview', () => {
  const ctx = useTestApp({ users: ['user'] });
  let fileId: string;
  beforeAll(async () => {
    const body = multipartBody([{ filename: 'square.png', contentType: 'image/png', bytes: await squareImage() }]);
    const res = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${ctx.user.token}` },
    });
    fileId = res.json().data.fileId;
  });

  const preview = (body: object, token = ctx.user.token) =>
    ctx.app.call('POST', '/api/generate/task/controlnet/preview', { token, body });

  it('draws the canny edges of the reference image and keeps the map as the user’s file', async () => {
    const res = await preview({
      fileId,
      controlnetModule: 'canny',
      processorRes: 160,
      thresholdA: 50,
      thresholdB: 150,
    });
    expect(res.body).toMatchObject({ code: 0, data: { url: expect.stringMatching(/^\/api\/files\//) } });
    const image = await ctx.app.app.inject({ method: 'GET', url: res.body.data.url });
    const { data, info } = await sharp(image.rawPayload).greyscale().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) =>
      data[Math.round((y / 160) * info.height) * info.width + Math.round((x / 160) * info.width)] ?? 0;
    const edgeRow = Array.from({ length: 7 }, (_, i) => at(37 + i, 80));
    expect(Math.max(...edgeRow)).toBeGreaterThan(128);
    expect(at(80, 80)).toBeLessThan(64);
    expect(at(10, 10)).toBeLessThan(64);
  });

  it('refuses an unknown preprocessor, another user’s image and out-of-range thresholds', async () => {
    expect((await preview({ fileId, controlnetModule: 'openpose_full' })).body).toMatchObject({
      code: -1,
      msg: '不支持的预处理器：openpose_full',
    });
    const other = await registerUser(ctx.app);
    expect((await preview({ fileId, controlnetModule: 'canny' }, other.token)).body).toMatchObject({
      code: -1,
      msg: '参考图文件不存在，请重新上传',
    });
    const bad = await preview({ fileId, controlnetModule: 'canny', thresholdA: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('低阈值须在 1–255 之间');
    expect(
      (
        await ctx.app.call('POST', '/api/generate/task/controlnet/preview', {
          body: { fileId, controlnetModule: 'canny' },
        })
      ).status,
    ).toBe(401);
  });
});
