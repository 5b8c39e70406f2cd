import sharp from 'sharp';
import { expect, it } from 'vitest';
import { signingSecret, UrlSigner } from '../../src/platform/url-signer.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { uploadPng } from '../helpers/multipart.js';
import { describeServer } from '../helpers/suite.js';
import { loginAdmin } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const SMALL = { width: 256, height: 256, steps: 8 };
const EXPIRED = { code: -1, msg: '图片链接已失效，请刷新页面' };

describeServer('files: an upload is its owner’s, a work made from it does not give it away', () => {
  const ctx = useTestApp({ users: ['owner', 'other'] });

  async function upload(token: string) {
    const uploaded = await uploadPng(ctx.app, token);
    expect(uploaded.code).toBe(0);
    return uploaded.data;
  }

  const get = async (url: string, token?: string) => {
    const res = await ctx.app.app.inject({
      method: 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, bytes: res.rawPayload, json: () => res.json() };
  };

  it('hands the owner a signed link; the bare, forged or expired link opens nothing for anyone', async () => {
    const photo = await upload(ctx.owner.token);
    expect(photo.url).toMatch(new RegExp(`^/api/files/${photo.fileId}\\?e=\\d+&s=[\\w-]+$`));
    const mine = await get(photo.url);
    expect(mine.status).toBe(200);
    expect((await sharp(mine.bytes).metadata()).width).toBe(64);

    for (const token of [undefined, ctx.other.token, ctx.owner.token]) {
      const bare = await get(`/api/files/${photo.fileId}`, token);
      expect(bare.status).toBe(403);
      expect(bare.json()).toMatchObject(EXPIRED);
    }
    const forged = await get(photo.url.replace(/s=[\w-]+$/, 's=AAAAAAAAAAAAAAAAAAAAAAAA'));
    expect(forged.status).toBe(403);
    const expiredLink = new UrlSigner(await signingSecret(ctx.app.db, undefined), -60_000).sign(
      `/api/files/${photo.fileId}`,
    );
    const expired = await get(expiredLink);
    expect(expired.status).toBe(403);
    expect(expired.json()).toMatchObject(EXPIRED);
    const missing = await get('/api/files/doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ code: 404, msg: '文件不存在' });
  });

  it('gives a fresh signed link for a kept fileId to its owner only', async () => {
    const photo = await upload(ctx.owner.token);
    const link = await ctx.app.call('GET', `/api/files/link/${photo.fileId}`, { token: ctx.owner.token });
    expect(link.body).toMatchObject({ code: 0, data: { fileId: photo.fileId } });
    expect((await get(link.body.data.url)).status).toBe(200);
    const stolen = await ctx.app.call('GET', `/api/files/link/${photo.fileId}`, { token: ctx.other.token });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toMatchObject({ code: 404, msg: '文件不存在' });
    expect((await ctx.app.call('GET', `/api/files/link/${photo.fileId}`)).status).toBe(401);
  });

  it('keeps an avatar public: everyone is shown it, by its plain link', async () => {
    const face = await upload(ctx.owner.token);
    const set = await ctx.app.call('POST', '/api/user/update/avatar', {
      token: ctx.owner.token,
      body: { avatar: face.fileId },
    });
    expect(set.body).toMatchObject({ code: 0, data: { avatar: `/api/files/${face.fileId}` } });
    expect((await get(set.body.data.avatar)).status).toBe(200);
    const shown = await ctx.app.call('GET', `/api/files/link/${face.fileId}`, { token: ctx.other.token });
    expect(shown.body).toMatchObject({ code: 0, data: { url: `/api/files/${face.fileId}` } });
  });

  it('opens an admin’s upload to everyone once it is a category cover', async () => {
    const admin = await loginAdmin(ctx.app);
    const cover = await upload(admin);
    const plain = `/api/files/${cover.fileId}`;
    expect((await get(plain)).status).toBe(403);
    const created = await ctx.app.call('POST', '/api/task', { token: admin, body: { name: '封面分类', cover: plain } });
    expect(created.body.code).toBe(0);
    expect((await get(plain)).status).toBe(200);
  });

  it('opens an admin’s upload to everyone once it is a LoRA style’s cover', async () => {
    const admin = await loginAdmin(ctx.app);
    const cover = await upload(admin);
    const plain = `/api/files/${cover.fileId}`;
    expect((await get(plain)).status).toBe(403);
    const created = await ctx.app.call('POST', '/api/admin/loras', {
      token: admin,
      body: {
        name: '封面风格',
        loraName: 'cover_style',
        engine: 'builtin',
        styleGroup: '国风',
        family: '其他',
        cover: plain,
      },
    });
    expect(created.body.code).toBe(0);
    expect((await get(plain, ctx.other.token)).status).toBe(200);
  });

  it('never lets another user make an upload public through a cover or a template: it stays its owner’s', async () => {
    const photo = await upload(ctx.owner.token);
    const plain = `/api/files/${photo.fileId}`;
    const refused = { code: -1, msg: '只能使用自己上传的图片，请重新上传' };
    const tree = await ctx.app.call('GET', '/api/task/tree', { token: ctx.other.token });
    const source = (tree.body.data as any[]).flatMap((c) => c.children).find((t: any) => t.name === '头像生成');
    const copy = await ctx.app.call('POST', '/api/task/copy_to_mine', {
      token: ctx.other.token,
      body: { taskId: source.id },
    });
    const copyId = copy.body.data.id as string;
    // The copy keeps the official cover it came with; another user's upload as its cover is refused.
    const kept = await ctx.app.call('PUT', `/api/task/${copyId}`, {
      token: ctx.other.token,
      body: { name: '我的副本', cover: copy.body.data.cover },
    });
    expect(kept.body.code).toBe(0);
    const cover = await ctx.app.call('PUT', `/api/task/${copyId}`, { token: ctx.other.token, body: { cover: plain } });
    expect(cover.status).toBe(400);
    expect(cover.body).toMatchObject(refused);
    const list = await ctx.app.call('GET', `/api/task/template/list?taskId=${copyId}`, { token: ctx.other.token });
    const templateId = list.body.data[0].visTemplateList[0].templateId as string;
    const detail = (await ctx.app.call('GET', `/api/task/template/detail/${templateId}`, { token: ctx.other.token }))
      .body.data;
    const save = (body: object) =>
      ctx.app.call('POST', '/api/task/template/save/publish', {
        token: ctx.other.token,
        body: {
          templateId,
          taskId: copyId,
          name: detail.name,
          description: '',
          taskStepList: detail.taskStepList,
          ...body,
        },
      });
    expect((await save({ cover: detail.cover })).body.code).toBe(0);
    for (const body of [{ cover: plain }, { cover: null, description: plain }]) {
      const res = await save(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(refused);
    }
    // An admin may not publish a user's upload in official content either.
    const admin = await loginAdmin(ctx.app);
    const official = await ctx.app.call('POST', '/api/task', {
      token: admin,
      body: { name: '别人的封面', cover: plain },
    });
    expect(official.status).toBe(400);
    expect(official.body).toMatchObject(refused);

    // Even where such a link got in some other way (a row written before this rule), it opens nothing.
    await ctx.app.db.updateTable('task_nodes').set({ cover: plain }).where('id', '=', copyId).execute();
    await ctx.app.db
      .updateTable('templates')
      .set({ cover: plain, published_json: JSON.stringify({ ...detail, cover: plain }) })
      .where('id', '=', templateId)
      .execute();
    await ctx.app.db
      .updateTable('users')
      .set({ avatar_file_id: photo.fileId })
      .where('id', '=', ctx.other.userId)
      .execute();
    for (const token of [undefined, ctx.other.token, ctx.owner.token]) {
      const bare = await get(plain, token);
      expect(bare.status).toBe(403);
      expect(bare.json()).toMatchObject(EXPIRED);
    }
    const theirs = await ctx.app.call('GET', `/api/files/link/${photo.fileId}`, { token: ctx.other.token });
    expect(theirs.status).toBe(404);
    const mine = await ctx.app.call('GET', `/api/files/link/${photo.fileId}`, { token: ctx.owner.token });
    expect(mine.body.data.url).toMatch(new RegExp(`^/api/files/${photo.fileId}\\?e=\\d+&s=[\\w-]+$`));
    expect((await get(mine.body.data.url)).status).toBe(200);

    // The user's own upload as the cover of their own copy is their own act.
    const own = await upload(ctx.other.token);
    const ownCover = await ctx.app.call('PUT', `/api/task/${copyId}`, {
      token: ctx.other.token,
      body: { cover: `/api/files/${own.fileId}` },
    });
    expect(ownCover.body.code).toBe(0);
  });

  it('publishes works made from an uploaded photo (蓝底证件照, ControlNet) without the photo or its id', async () => {
    const photo = await upload(ctx.owner.token);
    const sketch = await upload(ctx.owner.token);
    const idPhoto = await demoTemplate(ctx.app, ctx.owner.token, '蓝底证件照');
    const lineart = await demoTemplate(ctx.app, ctx.owner.token, '线稿上色');
    const unit = { ...lineart.taskStepList[0].parameters.controlNets?.[0], inputImageFileId: sketch.fileId };
    const workIds: string[] = [];
    for (const body of [
      generateBody(idPhoto, { ...SMALL, initImageFileId: photo.fileId }),
      generateBody(lineart, { ...SMALL, controlNets: [unit] }),
    ]) {
      const submit = await ctx.app.call('POST', '/api/generate/task', { token: ctx.owner.token, body });
      expect(submit.body.code).toBe(0);
      const { final } = await waitForEnd(ctx.app, ctx.owner.token, submit.body.data.generateId);
      expect(final.status).toBe('succeeded');
      const workId = final.images[0].workId as string;
      const published = await ctx.app.call('POST', '/api/works/publish', {
        token: ctx.owner.token,
        body: { id: workId, public: true, hidePrompt: false },
      });
      expect(published.body.code).toBe(0);
      workIds.push(workId);
    }
    // The owner's own detail still names the photos, for 再次生成.
    const own = await ctx.app.call('GET', `/api/works/profile/detail?id=${workIds[0]}`, { token: ctx.owner.token });
    expect(own.body.data.parameters.initImageFileId).toBe(photo.fileId);

    const answers = [
      ...(await Promise.all(workIds.map((id) => ctx.app.call('GET', `/api/works/public/detail?id=${id}`)))),
      await ctx.app.call('GET', '/api/works/public/list?pageSize=50'),
      await ctx.app.call('GET', `/api/task/template/related/work?templateId=${idPhoto.templateId}`, {
        token: ctx.other.token,
      }),
    ];
    for (const answer of answers) {
      expect(answer.body.code).toBe(0);
      const text = JSON.stringify(answer.body);
      for (const fileId of [photo.fileId, sketch.fileId]) expect(text).not.toContain(fileId);
      expect(text).not.toMatch(/FileId/);
    }
    const detail = answers[0]!.body.data;
    // Without the photo's id the mode still tells readers the work was drawn over an image (重绘幅度 applies).
    expect(detail).toMatchObject({ mode: 'img2img', parameters: { denoisingStrength: expect.any(Number) } });
    expect(answers[1]!.body.data.parameters.controlNets).toHaveLength(1);

    for (const fileId of [photo.fileId, sketch.fileId]) {
      const anonymous = await get(`/api/files/${fileId}`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.json()).toMatchObject(EXPIRED);
    }
  });
});
