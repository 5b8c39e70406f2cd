import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../src/features/moderation/publication-gate.js';
import { readBytes } from '../../src/platform/storage/storage.js';
import { type AliyunModerationDouble, startAliyunModerationDouble } from '../doubles/aliyun-moderation-double.js';
import { freePort } from '../helpers/free-port.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { seedWorks } from '../works/work-fixtures.js';

const BLOCK_WORD = 'forbidden-scene';

describeServer(
  'content moderation before publication through Aliyun 内容安全增强版 (double that fetches the image)',
  () => {
    let double: AliyunModerationDouble;
    let port: number;
    let origin: string;

    beforeAll(async () => {
      double = await startAliyunModerationDouble(
        { accessKeyId: 'LTAIHuafangModeration', accessKeySecret: 'aliyun-secret-for-the-double' },
        { blockWords: [BLOCK_WORD] },
      );
      port = await freePort();
      origin = `http://127.0.0.1:${port}`;
    });
    afterAll(() => double?.close());
    const ctx = useTestApp({
      config: () => ({ moderation: { kind: 'aliyun', ...double.settings, timeoutMs: 4000 }, publicBaseUrl: origin }),
      admin: true,
      users: { author: { nickname: '画师乙' } },
    });
    // The double fetches the image from the app's public address.
    beforeAll(() => ctx.app.app.listen({ port, host: '127.0.0.1' }));
    afterEach(() => double.reset());

    const publish = (id: string) =>
      ctx.app.call('POST', '/api/works/publish', {
        token: ctx.author.token,
        body: { id, public: true, hidePrompt: false },
      });
    const callsFor = (workId: string) => double.requests.filter((call) => call.dataId === workId);

    it('publishes a clean work: Aliyun fetched the private original through its signed link', async () => {
      const [id] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'a quiet lake at dawn' }]);
      expect((await publish(id!)).body).toMatchObject({ code: 0, msg: '已发布到灵感广场', data: { public: true } });
      expect(double.rejections).toEqual([]);
      const calls = callsFor(id!);
      expect(calls.map((call) => call.action).sort()).toEqual(['ImageModeration', 'TextModerationPlus']);
      expect(calls.find((call) => call.action === 'TextModerationPlus')).toMatchObject({
        service: 'llm_query_moderation',
        content: expect.stringContaining('a quiet lake at dawn'),
      });
      const image = calls.find((call) => call.action === 'ImageModeration');
      expect(image).toMatchObject({ service: 'baselineCheck' });
      expect(image?.imageUrl).toMatch(new RegExp(`^${origin}/api/works/image/${id}\\?e=\\d+&s=[\\w-]+$`));
      // The work was private when Aliyun fetched it: only the signature let it in. It got the work's original as
      // the site serves it (a PNG of the same size, with the AIGC labels), not the thumbnail.
      expect(image?.fetched).toMatchObject({ status: 200, contentType: 'image/png' });
      const fetched = image?.fetched && 'body' in image.fetched ? image.fetched.body : Buffer.alloc(0);
      const stored = await readBytes((await ctx.app.services.storage.read(`works/${id}.png`))!);
      const [got, original] = await Promise.all([sharp(fetched).metadata(), sharp(stored).metadata()]);
      expect({ format: got.format, width: got.width, height: got.height }).toEqual({
        format: 'png',
        width: original.width,
        height: original.height,
      });
      // Without the signature the same address is refused while the work was private (checked on another work).
      const [other] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'still private' }]);
      expect((await fetch(`${origin}/api/works/image/${other}`)).status).toBe(403);
    });

    it('keeps a blocked work private with its reason; an error Code refuses the publication (fail closed)', async () => {
      const [blocked] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: `a ${BLOCK_WORD} in the rain` }]);
      expect((await publish(blocked!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.block('色情') });
      const queue = (await ctx.app.call('GET', '/api/admin/works/moderation?kind=flagged', { token: ctx.admin })).body
        .data;
      expect(queue.list.find((entry: any) => entry.work.id === blocked)).toMatchObject({
        items: [{ kind: 'text', verdict: 'block', label: '色情', detail: expect.stringContaining(BLOCK_WORD) }],
      });

      const [refused] = await seedWorks(ctx.app, ctx.author.userId, [{ prompt: 'portrait' }]);
      double.answerNext('ImageModeration', { code: 408 });
      expect((await publish(refused!)).body).toMatchObject({ code: -1, msg: MODERATION_MESSAGES.failed });
      const row = await ctx.app.db.selectFrom('works').selectAll().where('id', '=', refused!).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ public: 0, publish_pending: 0 });
      expect(ctx.app.logLines.some((line) => line.includes('"providerCode":"408"'))).toBe(true);
    });
  },
);
