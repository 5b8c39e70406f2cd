import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/** The headers a helmet middleware sets, run once: with static directives they are the same for every answer. */
function headersOf(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * Headers that only a document acts on: the browsing context it opens (COOP), its agent cluster, the DNS prefetching
 * of its links, IE's opening of a downloaded page, the old XSS filter of rendered HTML. A JSON answer, sent with
 * nosniff, is never rendered as a document, so it goes without them; everything else keeps them.
 */
const DOCUMENT_ONLY = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-xss-protection',
]);

/**
 * Security headers on every answer; HSTS only behind a trusted proxy, which is where TLS ends. Helmet is run once
 * here and its headers copied onto each answer: running its middleware for every request (a dozen functions and
 * header validations) cost a tenth of the CPU of the progress poll (bench/progress.bench.ts). They go into the
 * reply's own headers, so a route may still replace one (the API docs' CSP, a page's nonce). JSON answers carry
 * all but the document-only ones, including the strict CSP, nosniff, frame and cross-origin resource policies.
 */
export async function registerSecurityHeaders(app: FastifyInstance, behindProxy: boolean): Promise<void> {
  const all = Object.entries(
    headersOf(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
        frameguard: { action: 'deny' },
        strictTransportSecurity: behindProxy ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      }),
    ),
  );
  const everyAnswer = Object.fromEntries(all.filter(([name]) => !DOCUMENT_ONLY.has(name)));
  const documents = Object.fromEntries(all.filter(([name]) => DOCUMENT_ONLY.has(name)));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(everyAnswer);
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) reply.headers(documents);
    done(null, payload);
  });
}

/**
 * A fresh nonce for the page's run-time styles (antd injects <style> tags): it goes into this answer's CSP and
 * the caller puts it into the page. Scripts get none, so script-src stays 'self' only.
 */
export function styleNonce(reply: FastifyReply): string {
  const nonce = randomBytes(18).toString('base64');
  const directives = { ...DIRECTIVES, styleSrc: [...DIRECTIVES.styleSrc, `'nonce-${nonce}'`] };
  reply.headers(headersOf(contentSecurityPolicy({ useDefaults: false, directives })));
  return nonce;
}
