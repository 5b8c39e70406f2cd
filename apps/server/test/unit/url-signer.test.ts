import { expect, it } from 'vitest';
import { UrlSigner } from '../../src/platform/url-signer.js';

it('signs a path until it expires, for that path and secret only', () => {
  let now = Date.UTC(2026, 10, 22);
  const signer = new UrlSigner(Buffer.from('a-secret-of-enough-length'), 3_600_000, () => now);
  const link = signer.sign('/api/works/image/abc');
  const params = new URL(link, 'http://x').searchParams;
  const [e, s] = [params.get('e') ?? undefined, params.get('s') ?? undefined];
  expect(signer.verify('/api/works/image/abc', e, s)).toBe(true);
  expect(signer.verify('/api/works/thumb/abc', e, s)).toBe(false);
  expect(signer.verify('/api/works/image/abc', String(Number(e) + 60), s)).toBe(false);
  expect(signer.verify('/api/works/image/abc', e, undefined)).toBe(false);
  expect(
    new UrlSigner(Buffer.from('another-secret-entirely'), 3_600_000, () => now).verify('/api/works/image/abc', e, s),
  ).toBe(false);
  now += 3_600_000 - 1000;
  expect(signer.verify('/api/works/image/abc', e, s)).toBe(true);
  now += 2000;
  expect(signer.verify('/api/works/image/abc', e, s)).toBe(false);
});

it('binds a link to the scope it was signed in: a link of another scope does not verify', () => {
  const signer = new UrlSigner(Buffer.from('a-secret-of-enough-length'), 3_600_000);
  const query = (link: string) => {
    const params = new URL(link, 'http://x').searchParams;
    return [params.get('e') ?? undefined, params.get('s') ?? undefined] as const;
  };
  const [e, s] = query(signer.sign('/api/works/image/abc'));
  expect(signer.verify('/api/works/image/abc', e, s)).toBe(true);
  expect(signer.verify('/api/works/image/abc', e, s, 'hidden')).toBe(false);
  const [he, hs] = query(signer.sign('/api/works/image/abc', 'hidden'));
  expect(signer.verify('/api/works/image/abc', he, hs, 'hidden')).toBe(true);
  expect(signer.verify('/api/works/image/abc', he, hs)).toBe(false);
});

it('fingerprints a viewer the same way each time, differently per secret, never in the clear', () => {
  const signer = new UrlSigner(Buffer.from('a-secret-of-enough-length'), 3_600_000);
  const viewer = '203.0.113.9\nMozilla/5.0';
  expect(signer.fingerprint(viewer)).toBe(signer.fingerprint(viewer));
  expect(signer.fingerprint(viewer)).not.toBe(signer.fingerprint('203.0.113.9\nSafari'));
  expect(new UrlSigner(Buffer.from('another-secret-entirely'), 3_600_000).fingerprint(viewer)).not.toBe(
    signer.fingerprint(viewer),
  );
  expect(signer.fingerprint(viewer)).not.toContain('203.0.113.9');
});
