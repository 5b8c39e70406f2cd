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
 * A JSON answer is data for the app's own scripts, never a page: sent with nosniff it is not rendered, and opened
 * directly it is shown as text. It keeps what guards data: nosniff; CORP same-origin, so no other site can load it
 * as a no-cors resource; refusal to be framed (frame-ancestors and X-Frame-Options for older browsers); HSTS (a
 * browser learns it from any answer, and the poll is the most frequent one). Its CSP is the shortest, strictest
 * one, `default-src 'none'`: the page's directives name where scripts, styles and images may come from, which a
 * document that loads nothing does not need. Left to pages (and other answers: images, files, downloads): the
 * referrer policy and the cross-domain policy flag (they govern requests a document or a plug-in makes, and a
 * JSON answer makes none), COOP, the agent cluster, DNS prefetching of links, IE's opening of downloads and the
 * old XSS filter. Fewer and shorter headers are less for Node to check and write on every poll
 * (bench/progress.bench.ts).
 */
export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";
const ON_JSON = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'x-frame-options',
  'strict-transport-security',
]);

/**
 * Security headers on every answer; HSTS only behind a trusted proxy, which is where TLS ends. Helmet is run once
 * here and its headers copied onto each answer: running its middleware for every request (a dozen functions and
 * header validations) cost a tenth of the CPU of the progress poll (bench/progress.bench.ts). Every answer starts
 * with the JSON set; one that turns out not to be JSON gets the rest, and the page's CSP unless its route set one
 * of its own (a page's style nonce, the API docs). They go into the reply's own headers, so a route may still
 * replace one.
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
  const json = Object.fromEntries([
    ...all.filter(([name]) => ON_JSON.has(name)),
    ['content-security-policy', JSON_CSP],
  ]);
  const rest = Object.fromEntries(all.filter(([name]) => !ON_JSON.has(name) && name !== 'content-security-policy'));
  const pageCsp = all.find(([name]) => name === 'content-security-policy')?.[1] ?? '';
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(json);
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) {
      reply.headers(rest);
      if (reply.getHeader('content-security-policy') === JSON_CSP) reply.header('content-security-policy', pageCsp);
    }
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
