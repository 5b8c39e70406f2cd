import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** The real build (`npm run build -w apps/web`): the precompressed files are part of what is under test. */
const WEB_DIST = path.resolve(import.meta.dirname, '../../../web/dist');

/** The largest script the built page loads up front (the entry itself may be a tiny loader of the app chunk). */
function largestPageScript(): string {
  const indexFile = path.join(WEB_DIST, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: run npm run build -w apps/web first`);
  const scripts = [...readFileSync(indexFile, 'utf8').matchAll(/"(\/assets\/[^"]+\.js)"/g)].map(
    (match) => match[1] as string,
  );
  const largest = scripts.sort(
    (a, b) => statSync(path.join(WEB_DIST, b)).size - statSync(path.join(WEB_DIST, a)).size,
  )[0];
  if (!largest) throw new Error('the built index.html names no script');
  return largest;
}

describeServer('platform: caching and compression of the web app', () => {
  const ctx = useTestApp({ config: { webDistDir: WEB_DIST } });
  let entry: string;
  let entryBody: Buffer;
  beforeAll(() => {
    entry = largestPageScript();
    entryBody = readFileSync(path.join(WEB_DIST, entry));
  });

  const get = (url: string, acceptEncoding?: string) =>
    ctx.app.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('lets browsers keep hashed assets for a year without asking again', async () => {
    const res = await get(entry);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(entryBody)).toBe(true);
  });

  it('sends the brotli file built beside an asset to a browser that accepts br, the gzip one otherwise', async () => {
    const br = await get(entry, 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(entryBody.length / 2);
    expect(brotliDecompressSync(br.rawPayload).equals(entryBody)).toBe(true);

    const gzip = await get(entry, 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.length).toBeLessThan(entryBody.length / 2);
    expect(gunzipSync(gzip.rawPayload).equals(entryBody)).toBe(true);

    const refused = await get(entry, 'br;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(entryBody)).toBe(true);
  });

  it('serves the page with no-cache and no validators, compressed, with its nonce', async () => {
    for (const url of ['/', '/draw']) {
      const plain = await get(url);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers.etag).toBeUndefined();
      expect(plain.headers['last-modified']).toBeUndefined();
      expect(plain.headers['content-encoding']).toBeUndefined();

      const br = await get(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers.etag).toBeUndefined();
      expect(br.headers['last-modified']).toBeUndefined();
      const html = brotliDecompressSync(br.rawPayload).toString('utf8');
      expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(html));
      const nonce = /'nonce-([^']+)'/.exec(String(br.headers['content-security-policy']))?.[1];
      expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      expect(html).toContain(`"${entry}"`);
    }
  });

  it('makes the browser revalidate files whose names carry no hash', async () => {
    const res = await get('/zod-jitless.js', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404, not the page, for a missing asset or static file, and still the page for an unknown app route', async () => {
    for (const url of ['/assets/index-missing.js', '/assets/missing.css', '/assets/img/gone.png', '/favicon-old.ico']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({ code: 404, msg: '文件不存在', data: null });
    }
    const route = await get('/draw/xyz');
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toContain('text/html');
    expect(route.body).toContain(`"${entry}"`);
  });
});
