import { DEFAULT_COMPLIANCE_SETTINGS } from '@huafang/contracts';
import { expect, it } from 'vitest';
import { readPngText } from '../../src/engines/png-text.js';
import { labelledImage } from '../../src/features/compliance/labelled-image.js';
import { markedCopyKey } from '../../src/features/works/work-files.js';
import { readBytes } from '../../src/platform/storage/storage.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { readZip } from '../helpers/zip.js';
import { seedWorks } from './work-fixtures.js';

describeServer('works: the marked copy behind downloads and zips', () => {
  const ctx = useTestApp({ admin: true, users: ['alice'] });
  const settings = { ...DEFAULT_COMPLIANCE_SETTINGS, producer: 'HF-OPERATOR-0001' };

  const stored = async (key: string) => {
    const stream = await ctx.app.services.storage.read(key);
    return stream && readBytes(stream);
  };
  const imageKey = async (id: string) =>
    (await ctx.app.db.selectFrom('works').select('image_key').where('id', '=', id).executeTakeFirstOrThrow()).image_key;
  const download = async (id: string) => {
    const detail = await ctx.app.call('GET', `/api/works/profile/detail?id=${id}`, { token: ctx.alice.token });
    return (await ctx.app.app.inject({ method: 'GET', url: detail.body.data.url })).rawPayload;
  };
  const zip = async (ids: string[]) => {
    const res = await ctx.app.app.inject({
      method: 'GET',
      url: `/api/files/downloadZip?ids=${ids.join(',')}`,
      headers: { authorization: `Bearer ${ctx.alice.token}` },
    });
    expect(res.statusCode).toBe(200);
    return readZip(res.rawPayload);
  };
  /** What labelling the stored original whole gives (decode, mark, encode on every download, as it was done). */
  const labelledWhole = async (id: string, current = settings) =>
    labelledImage((await stored(await imageKey(id)))!, { workId: id, withoutText: false, settings: current });

  it('serves and zips the same bytes as marking the labelled original, with the same PNG info', async () => {
    const save = await ctx.app.call('POST', '/api/admin/compliance', { token: ctx.admin, body: settings });
    expect(save.body.code).toBe(0);
    const ids = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: '山水 one' }, { prompt: '山水 two' }]);
    const entries = await zip(ids);
    for (const id of ids) {
      const expected = await labelledWhole(id);
      const entry = [...entries].find(([name]) => name.endsWith(`_${id}.png`))?.[1];
      expect(entry?.equals(expected)).toBe(true);
      expect((await download(id)).equals(expected)).toBe(true);
      const original = readPngText((await stored(await imageKey(id)))!);
      expect(readPngText(entry!).parameters).toBe(original.parameters);
    }
  });

  it('keeps the marked copy beside the original, paints it again when the mark changes, deletes it with the work', async () => {
    const [id] = await seedWorks(ctx.app, ctx.alice.userId, [{ prompt: '水墨' }]);
    const copyKey = markedCopyKey(await imageKey(id!));
    expect(await stored(copyKey)).toBeNull();
    const first = await download(id!);
    const copy = await stored(copyKey);
    expect(copy).not.toBeNull();
    // The copy's own bookkeeping chunk never leaves the service.
    expect(first.includes(Buffer.from('hfMk'))).toBe(false);
    expect((await download(id!)).equals(first)).toBe(true);

    const moved = { ...settings, markText: '人工智能生成', markPosition: 'topLeft' as const };
    expect((await ctx.app.call('POST', '/api/admin/compliance', { token: ctx.admin, body: moved })).body.code).toBe(0);
    const repainted = await download(id!);
    expect(repainted.equals(first)).toBe(false);
    expect(repainted.equals(await labelledWhole(id!, moved))).toBe(true);
    expect((await stored(copyKey))?.equals(copy!)).toBe(false);

    const removed = await ctx.app.call('DELETE', '/api/works', { token: ctx.alice.token, body: { ids: [id] } });
    expect(removed.body.code).toBe(0);
    expect(await stored(copyKey)).toBeNull();
  });

  it('paints the marked copy of a generated work once its result is shown, and its first download serves it', async () => {
    const template = await demoTemplate(ctx.app, ctx.alice.token, '水墨山水');
    const body = generateBody(template, { width: 256, height: 256, steps: 4, batchSize: 1, seed: 7 });
    const submit = await ctx.app.call('POST', '/api/generate/task', { token: ctx.alice.token, body });
    expect(submit.body.code).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.alice.token, submit.body.data.generateId);
    const id = final.images[0].workId as string;
    const copyKey = markedCopyKey(await imageKey(id));
    await expect.poll(() => stored(copyKey), { timeout: 10_000 }).not.toBeNull();
    const expected = await labelledWhole(id, await ctx.app.services.compliance.settings());
    // Without the original, only the copy kept after the generation can answer.
    await ctx.app.services.storage.remove(await imageKey(id));
    expect((await download(id)).equals(expected)).toBe(true);
  });
});
