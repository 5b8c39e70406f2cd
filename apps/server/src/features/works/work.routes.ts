import {
  DEFAULT_WORK_THUMB_SIZE,
  downloadZipQuerySchema,
  publicWorkDetailSchema,
  publicWorkPageSchema,
  publicWorkQuerySchema,
  reviewHideBodySchema,
  reviewWorkPageSchema,
  reviewWorkQuerySchema,
  workDetailSchema,
  workFavoriteBodySchema,
  workFavoritesQuerySchema,
  workIdQuerySchema,
  workItemSchema,
  workLikeBodySchema,
  workPageSchema,
  workProfileQuerySchema,
  workPublishBodySchema,
  workReactionsSchema,
  worksDeleteBodySchema,
  workThumbQuerySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { reply, replyEmpty } from '../../platform/route-schemas.js';
import type { Storage } from '../../platform/storage/storage.js';
import { datedFileName } from '../../platform/time-zone.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { originOf } from '../audit/audit-recorder.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import { PUBLIC_IMAGE_CACHE } from '../files/file.routes.js';
import type { WorkRepository } from './work.repository.js';
import { REACTION_MESSAGES, type WorkService } from './work.service.js';
import { readWorkImage, readWorkThumbOfSize, workLinkScope } from './work-files.js';
import { worksZip } from './work-zip.js';

const tags = ['作品'];
const params = z.object({ workId: z.string().max(64) });

type Deps = {
  works: WorkService;
  repo: WorkRepository;
  storage: Storage;
  signer: UrlSigner;
  compliance: ComplianceService;
};
const signature = z.object({ e: z.string().max(16).optional(), s: z.string().max(64).optional() });
const thumbQuery = signature.extend(workThumbQuerySchema.shape);

/**
 * A work's original and thumbnail. A public work's links are open; a private work's need the signature its
 * owner's lists carry (they expire), since an <img> cannot send a bearer token. Both are checked against the work
 * as it is now: withdrawn or hidden, its plain link stops at once (and shared caches keep it a minute at most);
 * hidden, only links signed since (the owner's and admins' lists) open it. The signature is the owner's
 * view: without it, a work whose author hid the prompt is served without its text chunks. Either way both leave with their AIGC
 * labels (implicit and visible): a public thumbnail's link can be opened and saved on its own.
 */
export const workImageRoutes: FastifyPluginAsyncZod<Deps> = async (app, { repo, storage, signer, compliance }) => {
  for (const [kind, mime] of [
    ['image', 'image/png'],
    ['thumb', 'image/webp'],
  ] as const) {
    app.get(
      `/works/${kind}/:workId`,
      {
        schema: {
          tags,
          summary: kind === 'image' ? '作品原图（PNG）' : '作品缩略图（WebP）',
          params,
          // `w`: the thumbnail's size (WORK_THUMB_SIZES; the original ignores it). The signature covers the path, so
          // one signed link opens every size.
          querystring: thumbQuery,
        },
      },
      async (req, reply) => {
        const keys = await repo.keysOf(req.params.workId);
        if (!keys) throw notFound('作品不存在');
        const open = keys.public === 1 && keys.hidden === 0;
        const path = `/api/works/${kind}/${req.params.workId}`;
        const signed = signer.verify(path, req.query.e, req.query.s, workLinkScope(keys));
        if (!open && !signed) throw forbidden('图片链接已失效，请刷新页面');
        // The thumbnail holds no metadata but the label; only the original carries the prompt.
        const body =
          kind === 'image'
            ? await readWorkImage(
                storage,
                compliance,
                { id: req.params.workId, image_key: keys.image_key },
                !signed && keys.hide_prompt === 1,
              )
            : await readWorkThumbOfSize(
                storage,
                compliance,
                { id: req.params.workId, thumb_key: keys.thumb_key, image_key: keys.image_key },
                req.query.w ?? DEFAULT_WORK_THUMB_SIZE,
              );
        if (!body) throw notFound('作品不存在');
        return reply
          .header('content-type', mime)
          .header('cache-control', signed ? 'private, max-age=3600' : PUBLIC_IMAGE_CACHE)
          .send(body);
      },
    );
  }
};

/** 我的作品: the user's own works. */
export const myWorkRoutes: FastifyPluginAsyncZod<Deps> = async (app, { works, storage, compliance }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/works/profile',
    {
      schema: { tags, summary: '我的作品', querystring: workProfileQuerySchema, response: reply(workPageSchema) },
      config: { apiKeyScope: 'works:read' },
    },
    async (req) => ok(await works.profile(currentUser(req).id, req.query)),
  );

  app.get(
    '/works/profile/detail',
    {
      schema: { tags, summary: '我的作品详情', querystring: workIdQuerySchema, response: reply(workDetailSchema) },
      config: { apiKeyScope: 'works:read' },
    },
    async (req) => ok(await works.detail(currentUser(req).id, req.query.id)),
  );

  app.delete(
    '/works',
    { schema: { tags, summary: '删除作品', body: worksDeleteBodySchema, response: replyEmpty } },
    async (req) => doneAfter(works.remove(currentUser(req).id, req.body.ids, originOf(req)), '删除成功'),
  );

  app.post(
    '/works/publish',
    {
      schema: {
        tags,
        summary: '发布到灵感广场或取消发布',
        body: workPublishBodySchema,
        response: reply(workItemSchema),
      },
    },
    async (req) => {
      const { id, public: makePublic, hidePrompt } = req.body;
      const { work, outcome } = await works.publish(currentUser(req).id, id, makePublic, hidePrompt, originOf(req));
      // On a work already public only 隐藏提示词 may change: a setting, not a publication.
      const msg = !makePublic
        ? '已取消发布'
        : outcome === 'published'
          ? '已发布到灵感广场'
          : outcome === 'changed'
            ? '设置成功'
            : '作品已在灵感广场';
      return ok(work, msg);
    },
  );

  app.post(
    '/works/like',
    { schema: { tags, summary: '点赞或取消点赞', body: workLikeBodySchema, response: reply(workReactionsSchema) } },
    async (req) => {
      const { id, like } = req.body;
      const reactions = await works.react(currentUser(req).id, 'like', id, like);
      return ok(reactions, REACTION_MESSAGES.like[like ? 'on' : 'off']);
    },
  );

  app.post(
    '/works/favorite',
    {
      schema: { tags, summary: '收藏或取消收藏', body: workFavoriteBodySchema, response: reply(workReactionsSchema) },
    },
    async (req) => {
      const { id, favorite } = req.body;
      const reactions = await works.react(currentUser(req).id, 'favorite', id, favorite);
      return ok(reactions, REACTION_MESSAGES.favorite[favorite ? 'on' : 'off']);
    },
  );

  app.get(
    '/works/favorites',
    {
      schema: {
        tags,
        summary: '我的收藏',
        querystring: workFavoritesQuerySchema,
        response: reply(publicWorkPageSchema),
      },
      config: { apiKeyScope: 'works:read' },
    },
    async (req) => ok(await works.favorites(currentUser(req).id, req.query)),
  );

  app.get(
    '/files/downloadZip',
    {
      schema: { tags, summary: '打包下载作品原图（zip）', querystring: downloadZipQuerySchema },
      config: { apiKeyScope: 'works:read' },
    },
    async (req, reply) => {
      const rows = await works.ownedForDownload(currentUser(req).id, req.query.ids);
      const name = datedFileName('huafang-works', 'zip', app.displayTimeZone);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(worksZip(storage, compliance, rows));
    },
  );
};

/** 灵感广场: published works, readable without login. */
export const publicWorkRoutes: FastifyPluginAsyncZod<Deps> = async (app, { works }) => {
  for (const [path, summary] of [
    ['/works/public', '灵感广场作品'],
    ['/works/public/list', '灵感广场作品（首页，未登录可用）'],
  ] as const) {
    app.get(
      path,
      { schema: { tags, summary, querystring: publicWorkQuerySchema, response: reply(publicWorkPageSchema) } },
      // Login is optional: a logged-in viewer's cards show what they liked and favourited.
      async (req) => ok(await works.publicPage(req.query, (await app.identify(req))?.id ?? null)),
    );
  }

  app.get(
    '/works/public/detail',
    {
      schema: {
        tags,
        summary: '灵感广场作品详情',
        querystring: workIdQuerySchema,
        response: reply(publicWorkDetailSchema),
      },
    },
    async (req) => {
      // Login is optional here: a valid token counts the view as the user's, anything else as anonymous.
      const userId = (await app.identify(req))?.id ?? null;
      const viewer = { userId, address: req.ip, userAgent: req.headers['user-agent'] ?? '' };
      return ok(await works.publicDetail(req.query.id, viewer));
    },
  );
};

/** 作品审核: admins see what was published and can hide a work from the public gallery. */
export const workReviewRoutes: FastifyPluginAsyncZod<Deps> = async (app, { works }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/works/review',
    {
      schema: {
        tags: ['管理后台'],
        summary: '已发布作品（审核）',
        querystring: reviewWorkQuerySchema,
        response: reply(reviewWorkPageSchema),
      },
    },
    async (req) => ok(await works.reviewPage(req.query.status, req.query.current, req.query.pageSize)),
  );

  app.post(
    '/admin/works/hide',
    { schema: { tags: ['管理后台'], summary: '隐藏或恢复作品', body: reviewHideBodySchema, response: replyEmpty } },
    async (req) => doneAfter(works.setHidden(req.body.id, req.body.hidden), req.body.hidden ? '已隐藏' : '已恢复显示'),
  );
};
