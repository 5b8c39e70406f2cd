import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeServer } from '../helpers/suite.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The CSP header as directive → sources. */
function policy(header: unknown): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

const PAGE = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <title>画坊</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

describeServer('platform: security headers, CSP and API docs', () => {
  let webDir: string;
  let app: TestApp;
  let production: TestApp;
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'huafang-web-'));
    await writeFile(path.join(webDir, 'index.html'), PAGE);
    await writeFile(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await createTestApp({ webDistDir: webDir, apiDocs: true, trustProxy: false });
    production = await createTestApp({ webDistDir: webDir, apiDocs: false, trustProxy: true });
  });
  afterAll(async () => {
    await app.close();
    await production.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('sends nosniff and the strictest CSP with every JSON answer: it loads nothing and may not be framed', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/api/help/types' });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const csp = policy(res.headers['content-security-policy']);
    expect(Object.fromEntries(csp)).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves pages with the full CSP', async () => {
    const page = await app.app.inject({ method: 'GET', url: '/draw' });
    expect(page.headers['content-type']).toContain('text/html');
    const csp = policy(page.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')?.[0]).toBe("'self'");
    expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    // Plain-HTTP deployments must keep working: nothing may upgrade their requests to HTTPS.
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it('gives answers that are neither JSON nor a page (files, images) the full header set and CSP', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(policy(res.headers['content-security-policy']).get('script-src')).toEqual(["'self'"]);
  });

  it('keeps every header on pages; JSON answers keep those that guard data', async () => {
    const onJson = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
    };
    const pageOnly = {
      'x-permitted-cross-domain-policies': 'none',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-xss-protection': '0',
    };
    const page = await app.app.inject({ method: 'GET', url: '/draw' });
    expect(page.headers).toMatchObject({ ...onJson, ...pageOnly });
    const docs = await app.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.headers).toMatchObject({ ...onJson, ...pageOnly });
    for (const url of ['/api/help/types', '/api/no-such-route']) {
      const json = await production.app.inject({ method: 'GET', url });
      expect(json.headers['content-type']).toContain('application/json');
      expect(json.headers).toMatchObject(onJson);
      expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(json.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      for (const name of Object.keys(pageOnly)) expect(json.headers[name]).toBeUndefined();
    }
  });

  it('sends HSTS only behind a trusted (TLS-terminating) proxy', async () => {
    const res = await production.app.inject({ method: 'GET', url: '/api/help/types' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('serves the page with a fresh style nonce in its CSP and in the page, and no script nonce', async () => {
    const nonces: string[] = [];
    for (const url of ['/', '/draw', '/admin/backends?x=1', '/index.html']) {
      const res = await app.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const csp = policy(res.headers['content-security-policy']);
      const styleNonce = csp.get('style-src')?.find((source) => source.startsWith("'nonce-"));
      expect(styleNonce).toMatch(/^'nonce-[A-Za-z0-9+/=_-]{16,}'$/);
      const nonce = styleNonce!.slice("'nonce-".length, -1);
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(res.headers['cache-control']).toBe('no-cache');
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it('serves the API docs with their own relaxed CSP when they are on', async () => {
    const ui = await app.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    const csp = policy(ui.headers['content-security-policy']);
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect((await app.app.inject({ method: 'GET', url: '/api/docs/json' })).json().info.title).toBe('画坊 API');
  });

  it('hides the API docs in production unless API_DOCS=true', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml']) {
      const res = await production.call('GET', url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, msg: '接口不存在', data: null });
    }
    // Production starts only with the operator's name for the AIGC label.
    const env = { NODE_ENV: 'production', AIGC_PRODUCER: 'HF-OPERATOR-0001' };
    expect(loadConfig(env).apiDocs).toBe(false);
    expect(loadConfig({ ...env, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
  });
});
