import type { ApiKeyScope } from '@huafang/contracts';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, tooManyRequests, unauthorized } from '../errors.js';

/** `sessionId` is null for a caller with a personal API key (req.apiKey says which). */
export type AuthUser = { id: string; isAdmin: boolean; sessionId: string | null };

export interface TokenResolver {
  resolveAccessToken(token: string): Promise<AuthUser | null>;
  /** The user of a token checked moments ago and not revoked since, without waiting; else undefined (ask above). */
  recentAccessToken(token: string): AuthUser | undefined;
  /** The message for a refused token when the user should hear why (a stopped account), else undefined. */
  refusalOf(token: string): Promise<string | undefined>;
}

/** A program calling with its owner's personal API key: never an admin, only on routes of its scopes. */
export type ApiKeyCaller = { id: string; userId: string; scopes: readonly ApiKeyScope[] };

export interface ApiKeyResolver {
  /** Whether a bearer token has the shape of a key (`hf_…`) rather than of a session token. */
  isApiKey(token: string): boolean;
  resolveApiKey(token: string): Promise<ApiKeyCaller | null>;
}

const API_KEY_REFUSED = '该 API 密钥无权访问此接口';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the requireUser guard; routes behind it may rely on it. */
    authUser: AuthUser | null;
    bearerToken: string | null;
    /** The key a program called with: who acted through which key, for the log and the audit trail. */
    apiKey: ApiKeyCaller | null;
    /**
     * Set once requireAdmin let the request in, or auditAdmin saw an admin on a route users share (tasks,
     * templates): the audit trail records it as an admin action.
     */
    adminRoute: boolean;
  }
  interface FastifyContextConfig {
    /** The scope a personal API key needs on this route; a route without one refuses every key (403). */
    apiKeyScope?: ApiKeyScope;
  }
  interface FastifyInstance {
    /** An onRequest hook (callback style, so a recently checked token lets the request on at once). */
    requireUser: onRequestHookHandler;
    requireAdmin: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** After requireUser on routes users share with admins: an admin's request there is an admin action. */
    auditAdmin: (req: FastifyRequest) => Promise<void>;
    /** For routes open to everyone that say more to a logged-in caller: the user, or null without a valid token. */
    identify: (req: FastifyRequest) => Promise<AuthUser | null>;
  }
}

function readBearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Route guards for "logged in" and "admin"; the token lookups live in the session and API key services. A key
 * passes a guard only on a route whose config names one of its scopes, within its own per-minute limit.
 */
export const authPlugin = fp(
  async (app, opts: { tokens: TokenResolver; apiKeys: ApiKeyResolver; apiKeyPerMinute: number }) => {
    app.decorateRequest('authUser', null);
    app.decorateRequest('bearerToken', null);
    app.decorateRequest('apiKey', null);
    app.decorateRequest('adminRoute', false);
    // Counted per key over all API processes (the Redis store in scale-out mode), whatever the route.
    const limitApiKey = app.createRateLimit({
      max: opts.apiKeyPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `api-key:${req.apiKey?.id}`,
    });

    const identify = async (req: FastifyRequest): Promise<AuthUser | null> => {
      const token = readBearer(req);
      if (!token) return null;
      if (opts.apiKeys.isApiKey(token)) {
        const key = await opts.apiKeys.resolveApiKey(token);
        if (!key) return null;
        req.apiKey = key;
        req.log = req.log.child({ apiKeyId: key.id });
        req.authUser = { id: key.userId, isAdmin: false, sessionId: null };
        return req.authUser;
      }
      const user = await opts.tokens.resolveAccessToken(token);
      if (user) {
        req.bearerToken = token;
        req.authUser = user;
      }
      return user;
    };
    const admitApiKey = async (req: FastifyRequest, key: ApiKeyCaller) => {
      const scope = req.routeOptions.config.apiKeyScope;
      if (!scope || !key.scopes.includes(scope)) throw forbidden(API_KEY_REFUSED);
      const limit = await limitApiKey(req);
      if (!limit.isAllowed && limit.isExceeded) {
        throw tooManyRequests(`API 密钥请求过于频繁，请 ${limit.ttlInSeconds} 秒后再试`);
      }
    };
    const checkUser = async (req: FastifyRequest) => {
      if (!(await identify(req))) {
        const token = readBearer(req);
        if (!token) throw unauthorized();
        throw unauthorized(opts.apiKeys.isApiKey(token) ? 'API 密钥无效或已删除' : await opts.tokens.refusalOf(token));
      }
      if (req.apiKey) await admitApiKey(req, req.apiKey);
    };
    app.decorate('identify', identify);
    // Every poll of an open page passes here with a token checked moments ago: it goes on without the promises of
    // the full check (a few µs of each progress poll, bench/progress.bench.ts). API keys take the full way.
    app.decorate('requireUser', function requireUser(req: FastifyRequest, _reply: FastifyReply, done) {
      const token = readBearer(req);
      const user = token && !opts.apiKeys.isApiKey(token) ? opts.tokens.recentAccessToken(token) : undefined;
      if (!user) return void checkUser(req).then(() => done(), done);
      req.bearerToken = token;
      req.authUser = user;
      done();
    } satisfies onRequestHookHandler);
    app.decorate('requireAdmin', async (req: FastifyRequest) => {
      await checkUser(req);
      if (!req.authUser?.isAdmin) throw forbidden();
      req.adminRoute = true;
    });
    app.decorate('auditAdmin', async (req: FastifyRequest) => {
      if (req.authUser?.isAdmin) req.adminRoute = true;
    });
  },
  { name: 'huafang-auth', dependencies: ['@fastify/rate-limit'] },
);

/** The user set by requireUser; calling it on an unguarded route is a programming error. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized();
  return req.authUser;
}

/** The login session of the caller: routes that act on it (logout) are never open to API keys. */
export function currentSessionId(req: FastifyRequest): string {
  const sessionId = currentUser(req).sessionId;
  if (sessionId === null) throw forbidden(API_KEY_REFUSED);
  return sessionId;
}
