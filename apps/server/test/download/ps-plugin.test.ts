import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { fromBufferPromise } from 'yauzl';
import { downloadRoutes, PS_PLUGIN_DIR } from '../../src/features/download/download.routes.js';
import { registerErrorHandler } from '../../src/platform/error-handler.js';
import { demoTemplate, generateBody, waitForEnd } from '../generate/generation-helpers.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** apps/ps-plugin/api-client.js as the panel sees it (CommonJS, JSDoc-typed), loaded by Node's own require. */
type PluginWork = { id: string; url: string; thumbUrl: string; width: number; height: number; createdAt: string };
type PluginClient = {
  server: string;
  readonly token: string | null;
  login(account: string, password: string): Promise<string>;
  recentWorks(pageSize?: number): Promise<{ list: PluginWork[]; total: number; current: number; pageSize: number }>;
  downloadImage(pathOrUrl: string): Promise<ArrayBuffer>;
  uploadImage(bytes: ArrayBuffer | Uint8Array): Promise<{ fileId: string; url: string }>;
  drawUrl(fileId: string): string;
  sendToDraw(bytes: ArrayBuffer | Uint8Array): Promise<{ fileId: string; url: string }>;
};
const apiClient = createRequire(import.meta.url)(path.join(PS_PLUGIN_DIR, 'api-client.js')) as {
  createClient(options?: { server?: string; token?: string | null }): PluginClient;
  DEFAULT_SERVER: string;
};

/** Every file of a zip by its path. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await fromBufferPromise(bytes);
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/** Icon files of a manifest, with the @2x variant of each icon that declares scale 2. */
function iconPaths(manifest: any): string[] {
  const icons = [...(manifest.icons ?? []), ...manifest.entrypoints.flatMap((e: any) => e.icons ?? [])];
  return icons.flatMap((icon: any) => {
    const retina = (icon.scale ?? [1]).includes(2) ? [icon.path.replace(/(\.\w+)$/, '@2x$1')] : [];
    return [icon.path, ...retina];
  });
}

describeServer('download: the Photoshop UXP plugin package and its API client', () => {
  const ctx = useTestApp({ users: ['user'] });
  let server: string;
  beforeAll(async () => {
    await ctx.app.app.listen({ port: 0, host: '127.0.0.1' });
    server = `127.0.0.1:${(ctx.app.app.server.address() as AddressInfo).port}/`;
  });

  it('streams apps/ps-plugin as a .ccx zip with a valid manifest v5, without login', async () => {
    const res = await ctx.app.app.inject({ method: 'GET', url: '/api/download/ps/plugins' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-length']).toBeUndefined(); // streamed, not buffered
    const files = await unzip(res.rawPayload);

    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="huafang-ps-plugin-${manifest.version}.ccx"`);
    expect(manifest).toMatchObject({ manifestVersion: 5, id: 'com.huafang.photoshop', name: '画坊' });
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(files.has(manifest.main)).toBe(true);
    expect([manifest.host].flat()).toContainEqual(
      expect.objectContaining({ app: 'PS', minVersion: expect.stringMatching(/^\d+\.\d+/) }),
    );
    const panel = manifest.entrypoints.find((e: any) => e.type === 'panel');
    expect(panel).toMatchObject({ id: 'huafangPanel', label: { default: '画坊' } });
    for (const size of ['minimumSize', 'maximumSize', 'preferredDockedSize', 'preferredFloatingSize']) {
      expect(panel[size]).toEqual({ width: expect.any(Number), height: expect.any(Number) });
    }
    const icons = iconPaths(manifest);
    expect(icons.length).toBeGreaterThanOrEqual(2);
    for (const icon of icons) {
      expect(files.has(icon), icon).toBe(true);
      expect((await sharp(files.get(icon)).metadata()).format).toBe('png');
    }
    expect(manifest.requiredPermissions.network.domains).toBeDefined();
    expect(manifest.requiredPermissions.launchProcess.schemes).toContain('http');

    const html = files.get('index.html')!.toString('utf8');
    expect(html).toMatch(/<script src="index\.js"><\/script>/);
    for (const text of ['登录', '我的作品', '发送到画坊', 'id="server"']) expect(html).toContain(text);
    const script = files.get('index.js')!.toString('utf8');
    expect(script).toMatch(/require\('\.\/api-client\.js'\)/);
    expect(script).toContain("require('photoshop')");
    expect(files.has('api-client.js')).toBe(true);
    expect([...files.keys()].filter((name) => /(^|\/)(README\.md|package\.json)$/.test(name))).toEqual([]);
  });

  it('answers 插件包不存在 when the plugin folder is missing', async () => {
    const bare = Fastify({ logger: false });
    registerErrorHandler(bare, 1024);
    await bare.register(downloadRoutes, { prefix: '/api', pluginDir: path.join(PS_PLUGIN_DIR, 'missing') });
    const res = await bare.inject({ method: 'GET', url: '/api/download/ps/plugins' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, msg: '插件包不存在' });
    await bare.close();
  });

  it('api-client: logs in with account and password, uploads an image and builds the /draw hand-off', async () => {
    const client = apiClient.createClient({ server });
    expect(client.server).toBe(`http://${server.slice(0, -1)}`);
    expect(apiClient.createClient().server).toBe(apiClient.DEFAULT_SERVER);

    await expect(client.login(ctx.user.account, 'wrong-password')).rejects.toMatchObject({ name: 'HuafangError' });
    await expect(client.uploadImage(new Uint8Array(4))).rejects.toThrow('请先登录');
    expect(await client.login(ctx.user.account, ctx.user.password)).toBe(client.token);
    expect(client.token).toEqual(expect.any(String));

    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const handOff = await client.sendToDraw(new Uint8Array(png));
    expect(handOff.url).toBe(`${client.server}/draw?initImage=${encodeURIComponent(handOff.fileId)}`);
    expect(client.drawUrl(handOff.fileId)).toBe(handOff.url);
    const stored = await ctx.app.app.inject({ method: 'GET', url: ctx.app.services.files.signedUrlOf(handOff.fileId) });
    expect(stored.statusCode).toBe(200);
    expect((await sharp(stored.rawPayload).metadata()).width).toBe(40);

    const expired = apiClient.createClient({ server, token: 'not-a-token' });
    await expect(expired.uploadImage(png)).rejects.toMatchObject({ code: 401 });
    expect(expired.token).toBeNull();
  });

  it('api-client: lists the recent works and downloads a thumbnail and an original', async () => {
    const ink = await demoTemplate(ctx.app, ctx.user.token, '水墨山水');
    const submit = await ctx.app.call('POST', '/api/generate/task', {
      token: ctx.user.token,
      body: generateBody(ink, { width: 256, height: 256, steps: 6 }),
    });
    expect(submit.body.code).toBe(0);
    const { final } = await waitForEnd(ctx.app, ctx.user.token, submit.body.data.generateId);
    expect(final.status).toBe('succeeded');

    const client = apiClient.createClient({ server });
    await client.login(ctx.user.account, ctx.user.password);
    const page = await client.recentWorks(10);
    expect(page.total).toBeGreaterThanOrEqual(1);
    const [first] = page.list;
    expect(first).toMatchObject({ id: final.images[0].workId, width: 256, height: 256 });
    // A private work's links carry an expiring signature.
    expect(first!.thumbUrl.startsWith(`${client.server}/api/works/thumb/${first!.id}?e=`)).toBe(true);
    const thumb = Buffer.from(await client.downloadImage(first!.thumbUrl));
    expect((await sharp(thumb).metadata()).format).toBe('webp');
    const original = Buffer.from(await client.downloadImage(first!.url));
    expect(await sharp(original).metadata()).toMatchObject({ format: 'png', width: 256, height: 256 });
  });
});
