import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { contentSecurityPolicy } from 'helmet';

/**
 * Everything the page loads comes from our own origin; images may also be data: and blob: URLs (previews of
 * uploads). Style attributes are allowed (antd's auto-sizing text areas measure with setAttribute('style')); they
 * cannot add selectors or load anything, unlike <style> elements, which need the page's nonce.
 * No upgrade-insecure-requests: the embedded mode is often served over plain HTTP on a LAN.
 */
const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  styleSrcAttr: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The Swagger UI sets inline styles of its own; everything else stays as strict as the app's. */
export const API_DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * Security headers on every answer; HSTS only behind a trusted proxy, which is where TLS ends. Helmet's middleware
 * is built once here: @fastify/helmet built it again for every request, parsing the CSP each time, which cost a
 * tenth of the CPU of the progress poll (bench/scale-out.bench.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance, behindProxy: boolean): Promise<void> {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
    frameguard: { action: 'deny' },
    strictTransportSecurity: behindProxy ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  app.addHook('onRequest', (req, reply, done) => {
    setHeaders(req.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined));
  });
}

/**
 * A fresh nonce for the page's run-time styles (antd injects <style> tags): it goes into this answer's CSP and
 * the caller puts it into the page. Scripts get none, so script-src stays 'self' only.
 */
export function styleNonce(reply: FastifyReply): string {
  const nonce = randomBytes(18).toString('base64');
  const directives = { ...DIRECTIVES, styleSrc: [...DIRECTIVES.styleSrc, `'nonce-${nonce}'`] };
  contentSecurityPolicy({ useDefaults: false, directives })(reply.request.raw, reply.raw, () => undefined);
  return nonce;
}
