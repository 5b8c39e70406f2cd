import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';
import { creditsOf, demoTemplate, generateBody, waitForEnd } from './generation-helpers.js';

const SMALL = { width: 256, height: 256, steps: 8 };

describeServer('generate: a step whose form needs an image does not start without one', () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    user = await registerUser(app);
  });
  afterAll(() => app.close());

  const post = (url: string, body: object) => app.call('POST', url, { token: user.token, body });

  it('refuses a ControlNet template without its reference image, naming the field; nothing queued or charged', async () => {
    const lineart = await demoTemplate(app, user.token, '线稿上色');
    const unit = lineart.taskStepList[0].parameters.controlNets?.[0] ?? {};
    const jobsBefore = await app.db.selectFrom('generation_jobs').select('id').execute();
    const credits = await creditsOf(app, user.token);

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
    expect((await app.db.selectFrom('generation_jobs').select('id').execute()).length).toBe(jobsBefore.length);
    expect(await creditsOf(app, user.token)).toBe(credits);

    // With the reference image it runs.
    const png = await sharpPng();
    const upload = await app.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: { authorization: `Bearer ${user.token}`, ...png.headers },
      payload: png.payload,
    });
    expect(upload.json().code).toBe(0);
    const withImage = { ...SMALL, controlNets: [{ ...unit, inputImageFileId: upload.json().data.fileId }] };
    const started = await post('/api/generate/task', generateBody(lineart, withImage));
    expect(started.body.code).toBe(0);
    const { final } = await waitForEnd(app, user.token, started.body.data.generateId);
    expect(final.status).toBe('succeeded');
  });
});

async function sharpPng() {
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  return multipartBody([{ filename: 'lineart.png', contentType: 'image/png', bytes }]);
}
