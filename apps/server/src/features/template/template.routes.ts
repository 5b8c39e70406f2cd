import {
  featuredTemplateSchema,
  MSG,
  publicWorkPageSchema,
  relatedWorkQuerySchema,
  stepConfigSchema,
  taskTemplateListItemSchema,
  templateCopyBodySchema,
  templateCoverFromWorkBodySchema,
  templateCoverWorkPageSchema,
  templateCoverWorksQuerySchema,
  templateDetailSchema,
  templateFeaturedBodySchema,
  templateListQuerySchema,
  templateMoveBodySchema,
  templateRenameBodySchema,
  templateSaveBodySchema,
  templateSaveResultSchema,
  templateTaskSchema,
  uploadResultSchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import { toTask } from '../task/task.service.js';
import { COVER_MESSAGES, type WorkService } from '../works/work.service.js';
import type { TemplateService } from './template.service.js';

const tags = ['模板'];
const templateParams = z.object({ templateId: z.string().max(64) });

export const templateRoutes: FastifyPluginAsyncZod<{ templates: TemplateService; works: WorkService }> = async (
  app,
  { templates, works },
) => {
  app.addHook('onRequest', app.requireUser);
  // Users edit the templates of their own tasks here too; what an admin does here is in the audit trail like every admin action.
  app.addHook('onRequest', app.auditAdmin);

  app.get(
    '/task/template/list',
    {
      schema: {
        tags,
        summary: '同一分类下的任务及其可用模板',
        querystring: templateListQuerySchema,
        response: reply(z.array(taskTemplateListItemSchema)),
      },
    },
    async (req) => ok(await templates.listForTask(currentUser(req), req.query.taskId)),
  );
  app.get(
    '/task/template/detail/:templateId',
    { schema: { tags, summary: '模板详情（含步骤）', params: templateParams, response: reply(templateDetailSchema) } },
    async (req) => ok(await templates.detail(currentUser(req), req.params.templateId)),
  );
  app.get(
    '/task/template/task/cfg/:id',
    { schema: { tags, summary: '步骤的表单配置与默认参数', params: idParams, response: reply(stepConfigSchema) } },
    async (req) => ok(await templates.stepConfig(currentUser(req), req.params.id)),
  );
  app.get(
    '/task/template/task/:templateId',
    { schema: { tags, summary: '模板所属的任务与分类', params: templateParams, response: reply(templateTaskSchema) } },
    async (req) => {
      const { task, category } = await templates.taskOf(currentUser(req), req.params.templateId);
      return ok({ task: toTask(task), category: category ? toTask(category) : null });
    },
  );
  app.get(
    '/task/template/related/work',
    {
      schema: {
        tags,
        summary: '模板的相关作品（用该模板生成并公开的作品）',
        querystring: relatedWorkQuerySchema,
        response: reply(publicWorkPageSchema),
      },
    },
    async (req) => {
      const { templateId, current, pageSize } = req.query;
      await templates.assertReadable(currentUser(req), templateId);
      return ok(await works.publicPage({ templateId, current, pageSize, order: 'latest' }));
    },
  );

  for (const [path, publish] of [
    ['/task/template/save/publish', true],
    ['/task/template/save/draft', false],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary: publish ? '保存并发布模板' : '保存为草稿',
          body: templateSaveBodySchema,
          response: reply(templateSaveResultSchema),
        },
      },
      async (req) => ok(await templates.save(currentUser(req), req.body, publish), publish ? '发布成功' : '草稿已保存'),
    );
  }

  app.post(
    '/task/template/copy',
    {
      schema: {
        tags,
        summary: '复制模板',
        body: templateCopyBodySchema,
        response: reply(z.object({ templateId: z.string() })),
      },
    },
    async (req) => {
      const user = currentUser(req);
      return ok({ templateId: await templates.copy(user, req.body.templateId, req.body.taskId) }, '复制成功');
    },
  );
  app.post(
    '/task/template/move',
    { schema: { tags, summary: '移动模板', body: templateMoveBodySchema, response: replyEmpty } },
    async (req) =>
      doneAfter(templates.move(currentUser(req), req.body.templateId, req.body.taskId, req.body.sort), '移动成功'),
  );
  app.post(
    '/task/template/featured',
    {
      schema: { tags, summary: '设为精选或取消精选（管理员）', body: templateFeaturedBodySchema, response: replyEmpty },
    },
    async (req) =>
      doneAfter(templates.setFeatured(currentUser(req), req.body), req.body.featured ? '已设为精选' : '已取消精选'),
  );
  app.get(
    '/task/template/cover/works',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: '可选作封面的作品（管理员）',
        querystring: templateCoverWorksQuerySchema,
        response: reply(templateCoverWorkPageSchema),
      },
    },
    async (req) => ok(await works.coverCandidates(currentUser(req).id, req.query)),
  );
  app.post(
    '/task/template/cover/from-work',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: '选用模板生成的作品作为封面（管理员）',
        body: templateCoverFromWorkBodySchema,
        response: reply(uploadResultSchema),
      },
    },
    async (req) =>
      ok(await works.coverFromWork(currentUser(req).id, req.body.templateId, req.body.workId), COVER_MESSAGES.picked),
  );
  app.post(
    '/task/template/rename',
    { schema: { tags, summary: '重命名模板（不产生新版本）', body: templateRenameBodySchema, response: replyEmpty } },
    async (req) => doneAfter(templates.rename(currentUser(req), req.body.templateId, req.body.name), '重命名成功'),
  );
  app.delete(
    '/task/template/step/:id',
    { schema: { tags, summary: '删除步骤', params: idParams, response: replyEmpty } },
    async (req) => doneAfter(templates.removeStep(currentUser(req), req.params.id), MSG.deleted),
  );
  app.delete(
    '/task/template/:id',
    { schema: { tags, summary: '删除模板', params: idParams, response: replyEmpty } },
    async (req) => doneAfter(templates.remove(currentUser(req), req.params.id), MSG.deleted),
  );
};

/** Routes anyone may call, signed in or not. */
export const publicTemplateRoutes: FastifyPluginAsyncZod<{ templates: TemplateService }> = async (
  app,
  { templates },
) => {
  app.get(
    '/task/template/featured',
    {
      schema: {
        tags,
        summary: '首页精选模板（管理员设为精选的模板）',
        response: reply(z.array(featuredTemplateSchema)),
      },
    },
    async () => ok(await templates.featured()),
  );
};
