import sharp from 'sharp';
import { expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd } from './generation-helpers.js';

const SMALL = { width: 256, height: 256, steps: 8 };

describeServer('generate: a step whose form needs an image does not start without one', () => {
  const ctx = useTestApp({ users: ['user'] });

  const post = (url: string, body: object) => ctx.app.call('POST', url, { token: ctx.user.token, body });

  it('refuses a ControlNet template without its reference image, naming the field; nothing queued or charged', async () => {
    const lineart = await demoTemplate(ctx.app, ctx.user.token, '线稿上色');
    const unit = lineart.taskStepList[0].parameters.controlNets?.[0] ?? {};
    const jobsBefore = await ctx.app.db.selectFrom('generation_jobs').select('id').execute();
    const credits = await creditsOf(ctx.app, ctx.user.token);

    for (const parameters of [
      SMALL,
      { ...SMALL, controlNets: [] },
      { ...SMALL, controlNets: [{ ...unit, inputImageFileId: '' }] },
    ]) {
      const res = await post('/api/generate/task', generateBody(lineart, parameters));
      expect(res.body, JSON.stringify(parameters)).toMatchObject({ code: -1, msg: '请先上传线稿控制的参考图' });
      const predict = await post('/api/generate/task/predict', generateBody(lineart, parameters));
      expect(predict.body).toMatchObject({ code: -1, msg: '请先上传线稿控制的参考图' });
    }
    expect((await ctx.app.db.selectFrom('generation_jobs').select('id').execute()).length).toBe(jobsBefore.length);
    expect(await creditsOf(ctx.app, ctx.user.token)).toBe(credits);

    // With the reference image it runs.
    const png = await sharpPng();
    const upload = await ctx.app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: { authorization: `Bearer ${ctx.user.token}`, ...png.headers },
      payload: png.payload,
    });
    expect(upload.json().code).toBe(0);
    const withImage = { ...SMALL, controlNets: [{ ...unit, inputImageFileId: upload.json().data.fileId }] };
    const started = await post('/api/generate/task', generateBody(lineart, withImage));
    expect(started.body.code).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, started.body.data.generateId);
    expect(final.status).toBe('succeeded');
  });
});

async function sharpPng() {
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  return multipartBody([{ filename: 'lineart.png', contentType: 'image/png', bytes }]);
}
