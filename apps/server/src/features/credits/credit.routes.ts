import { creditLedgerPageSchema, creditLedgerQuerySchema } from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { ok } from '../../platform/envelope.js';
import { reply } from '../../platform/route-schemas.js';
import type { CreditService } from './credit.service.js';

/** 算力明细: a user reads their own credit changes. */
export const creditRoutes: FastifyPluginAsyncZod<{ credits: CreditService }> = async (app, { credits }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/account/credits/ledger',
    {
      schema: {
        tags: ['用户'],
        summary: '算力明细',
        querystring: creditLedgerQuerySchema,
        response: reply(creditLedgerPageSchema),
      },
    },
    async (req) => ok(await credits.ledger(currentUser(req).id, req.query)),
  );
};
