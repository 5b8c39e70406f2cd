import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../errors.js';

export type AuthUser = { id: string; isAdmin: boolean; sessionId: string };

export interface TokenResolver {
  resolveAccessToken(token: string): Promise<AuthUser | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the requireUser guard; routes behind it may rely on it. */
    authUser: AuthUser | null;
    bearerToken: string | null;
  }
  interface FastifyInstance {
    requireUser: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAdmin: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
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

/** Route guards for "logged in" and "admin"; the token lookup lives in the session service. */
export const authPlugin = fp(
  async (app, opts: { tokens: TokenResolver }) => {
    app.decorateRequest('authUser', null);
    app.decorateRequest('bearerToken', null);

    const identify = async (req: FastifyRequest) => {
      const token = readBearer(req);
      const user = token ? await opts.tokens.resolveAccessToken(token) : null;
      if (user) {
        req.bearerToken = token;
        req.authUser = user;
      }
      return user;
    };
    const requireUser = async (req: FastifyRequest) => {
      if (!(await identify(req))) throw unauthorized();
    };
    app.decorate('identify', identify);
    app.decorate('requireUser', requireUser);
    app.decorate('requireAdmin', async (req: FastifyRequest) => {
      await requireUser(req);
      if (!req.authUser?.isAdmin) throw forbidden();
    });
  },
  { name: 'huafang-auth' },
);

/** The user set by requireUser; calling it on an unguarded route is a programming error. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized();
  return req.authUser;
}
