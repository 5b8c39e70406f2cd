import {
  copiableSchema,
  copyToMineBodySchema,
  MSG,
  taskBodySchema,
  taskCopyBodySchema,
  taskMoveBodySchema,
  taskSchema,
  taskTreeNodeSchema,
  taskUpdateBodySchema,
} from '@huafang/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/auth/auth.plugin.js';
import { doneAfter, ok } from '../../platform/envelope.js';
import { idParams, reply, replyEmpty } from '../../platform/route-schemas.js';
import type { TaskService } from './task.service.js';

const tags = ['任务'];
const treeReply = reply(z.array(taskTreeNodeSchema));

export const taskRoutes: FastifyPluginAsyncZod<{ tasks: TaskService }> = async (app, { tasks }) => {
  app.addHook('onRequest', app.requireUser);
  // Users edit their own tasks here too; what an admin does here is in the audit trail like every admin action.
  app.addHook('onRequest', app.auditAdmin);

  // One tree route per scope; which nodes a scope shows to whom is the service's rule.
  const trees = [
    { path: '/task/tree', scope: 'published', summary: '已发布的任务树（分类 → 任务 → 模板）' },
    { path: '/task/tree/mine', scope: 'mine', summary: '我的任务（复制到名下的任务）' },
    { path: '/task/tree/all', scope: 'all', summary: '全部任务树，含草稿（管理员）' },
  ] as const;
  for (const { path, scope, summary } of trees) {
    app.get(path, { schema: { tags, summary, response: treeReply } }, async (req) =>
      ok(await tasks.tree(currentUser(req), scope)),
    );
  }

  app.post(
    '/task',
    { schema: { tags, summary: '新建分类或任务（管理员）', body: taskBodySchema, response: reply(taskSchema) } },
    async (req) => ok(await tasks.create(currentUser(req), req.body), MSG.set),
  );
  app.get(
    '/task/:id',
    { schema: { tags, summary: '任务', params: idParams, response: reply(taskSchema) } },
    async (req) => ok(await tasks.get(currentUser(req), req.params.id)),
  );
  app.put(
    '/task/:id',
    {
      schema: { tags, summary: '修改任务', params: idParams, body: taskUpdateBodySchema, response: reply(taskSchema) },
    },
    async (req) => ok(await tasks.update(currentUser(req), req.params.id, req.body), MSG.set),
  );
  app.delete(
    '/task/:id',
    { schema: { tags, summary: '删除任务', params: idParams, response: replyEmpty } },
    async (req) => doneAfter(tasks.remove(currentUser(req), req.params.id), MSG.deleted),
  );

  app.post(
    '/task/copy',
    { schema: { tags, summary: '复制任务（管理员）', body: taskCopyBodySchema, response: reply(taskSchema) } },
    async (req) => ok(await tasks.copy(currentUser(req), req.body.taskId, req.body.parentId), '复制成功'),
  );
  app.post(
    '/task/move',
    { schema: { tags, summary: '移动任务（管理员）', body: taskMoveBodySchema, response: reply(taskSchema) } },
    async (req) => ok(await tasks.move(currentUser(req), req.body), '移动成功'),
  );
  app.post(
    '/task/copy_to_mine',
    { schema: { tags, summary: '复制到我的任务', body: copyToMineBodySchema, response: reply(taskSchema) } },
    async (req) => ok(await tasks.copyToMine(currentUser(req), req.body.taskId), '已复制到我的任务'),
  );
  app.get(
    '/task/copiable/:taskId',
    {
      schema: {
        tags,
        summary: '能否复制任务',
        params: z.object({ taskId: z.string().max(64) }),
        response: reply(copiableSchema),
      },
    },
    async (req) => ok(await tasks.copiable(currentUser(req), req.params.taskId)),
  );
  app.get(
    '/task/copiable/:taskId/:templateId',
    {
      schema: {
        tags,
        summary: '能否复制任务（含指定模板）',
        params: z.object({ taskId: z.string().max(64), templateId: z.string().max(64) }),
        response: reply(copiableSchema),
      },
    },
    async (req) => ok(await tasks.copiable(currentUser(req), req.params.taskId, req.params.templateId)),
  );
};
