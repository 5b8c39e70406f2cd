import type { Task, TaskBody, TaskTreeNode, taskMoveBodySchema } from '@huafang/contracts';
import type { z } from 'zod';
import type { Executor } from '../../platform/db/database.js';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { seedDemoTasks } from '../../seed/demo-content.js';
import { assertOwnFileLinks } from '../files/file-links.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import type { TemplateRepository, TemplateRow } from '../template/template.repository.js';
import {
  canReadTask,
  canReadTemplate,
  canWriteOwned,
  editsWorkingCopy,
  publishedOf,
  type TemplateService,
  type Viewer,
} from '../template/template.service.js';
import type { TaskRepository, TaskRow } from './task.repository.js';

export const MINE_CATEGORY_ID = 'mine';

export const toTask = (row: TaskRow): Task => ({
  id: row.id,
  parentId: row.parent_id,
  kind: row.kind as Task['kind'],
  name: row.name,
  icon: row.icon,
  cover: row.cover,
  description: row.description,
  published: row.published === 1,
  sort: row.sort,
  ownerId: row.owner_id,
});

type TaskUpdate = Partial<Omit<TaskBody, 'parentId'>>;

export class TaskService {
  private readonly tasks: TaskRepository;
  private readonly templateRows: TemplateRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly templates: TemplateService,
    private readonly words: SensitiveWordFilter,
  ) {
    this.tasks = repos.tasks;
    this.templateRows = repos.templates;
  }

  /** SEED_DEMO: the demo model menu and task tree, once; content admins already made is left alone. */
  seedDemo(): Promise<void> {
    return seedDemoTasks(this.repos);
  }

  private async readable(viewer: Viewer, id: string): Promise<TaskRow> {
    const task = await this.tasks.find(id);
    if (!task || !canReadTask(viewer, task)) throw notFound('任务不存在');
    return task;
  }

  private async writable(viewer: Viewer, id: string): Promise<TaskRow> {
    const task = await this.readable(viewer, id);
    if (!canWriteOwned(viewer, task.owner_id)) throw forbidden();
    return task;
  }

  /**
   * Tree variants: `published` (what users browse), `all` (admins: drafts and unpublished too),
   * `mine` (the user's own copies under one 我的任务 node).
   */
  async tree(viewer: Viewer, variant: 'published' | 'all' | 'mine'): Promise<TaskTreeNode[]> {
    if (variant === 'all' && !viewer.isAdmin) throw forbidden();
    const rows = await this.tasks.listOf(variant === 'mine' ? viewer.id : null);
    const visible = variant === 'published' ? rows.filter((r) => r.published === 1) : rows;
    const templates = await this.templateRows.ofTasks(visible.filter((r) => r.kind === 'task').map((r) => r.id));
    const byId = new Map(visible.map((r) => [r.id, r]));
    const templateNodes = (task: TaskRow): TaskTreeNode[] =>
      templates
        .filter((t) => t.task_id === task.id && (variant === 'all' || canReadTemplate(viewer, t, task)))
        .map((t) => templateNode(viewer, t));
    const taskNode = (task: TaskRow): TaskTreeNode => {
      const children = templateNodes(task);
      return { ...nodeOf(task), templateCount: children.length, children };
    };
    if (variant === 'mine') {
      const mine = visible.filter((r) => r.kind === 'task').map(taskNode);
      return [
        {
          id: MINE_CATEGORY_ID,
          key: MINE_CATEGORY_ID,
          name: '我的任务',
          kind: 'category',
          parentId: null,
          icon: null,
          cover: null,
          description: '从任务广场复制到自己名下的任务',
          published: true,
          children: mine,
        },
      ];
    }
    return visible
      .filter((r) => r.kind === 'category')
      .map((category) => ({
        ...nodeOf(category),
        children: visible.filter((r) => r.parent_id === category.id && byId.has(r.id)).map(taskNode),
      }));
  }

  async get(viewer: Viewer, id: string): Promise<Task> {
    return toTask(await this.readable(viewer, id));
  }

  /** Admins create categories (no parent) and tasks (under a category). */
  async create(viewer: Viewer, body: TaskBody): Promise<Task> {
    if (!viewer.isAdmin) throw forbidden();
    await this.words.assertClean('taskName', body.name);
    await assertOwnFileLinks(this.repos.files, viewer, body.cover);
    let kind: 'category' | 'task' = 'category';
    if (body.parentId) {
      const parent = await this.tasks.find(body.parentId);
      if (!parent || parent.owner_id !== null) throw notFound('上级分类不存在');
      if (parent.kind !== 'category') throw fail('任务只能建在分类下，分类最多两级');
      kind = 'task';
    }
    const siblings = body.parentId ? await this.tasks.children(body.parentId) : await this.tasks.topLevel(null);
    const now = nowIso();
    const id = newId();
    await this.tasks.insert({
      id,
      parent_id: body.parentId,
      kind,
      name: body.name,
      icon: body.icon ?? null,
      cover: body.cover ?? null,
      description: body.description,
      published: body.published ? 1 : 0,
      sort: siblings.length,
      owner_id: null,
      source_id: null,
      created_at: now,
      updated_at: now,
    });
    return toTask((await this.tasks.find(id))!);
  }

  async update(viewer: Viewer, id: string, body: TaskUpdate): Promise<Task> {
    const task = await this.writable(viewer, id);
    await this.words.assertClean('taskName', body.name);
    await assertOwnFileLinks(this.repos.files, viewer, body.cover, task.cover);
    await this.tasks.update(id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.icon !== undefined ? { icon: body.icon } : {}),
      ...(body.cover !== undefined ? { cover: body.cover } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.published !== undefined ? { published: body.published ? 1 : 0 } : {}),
      updated_at: nowIso(),
    });
    return toTask((await this.tasks.find(id))!);
  }

  /** A category must be emptied first; a task goes with its templates. */
  async remove(viewer: Viewer, id: string): Promise<void> {
    const task = await this.writable(viewer, id);
    if (task.kind === 'category' && (await this.tasks.children(id)).length > 0) {
      throw fail('分类下还有任务，请先删除或移走这些任务');
    }
    await this.repos.transaction(async (trx) => {
      for (const t of await this.templateRows.ofTasks([id], trx)) await this.templateRows.delete(t.id, trx);
      await this.tasks.delete(id, trx);
    });
  }

  /**
   * Moves a node and renumbers its new siblings. Categories stay at the top (two levels, so no cycle can
   * form); tasks move between categories.
   */
  async move(viewer: Viewer, body: z.infer<typeof taskMoveBodySchema>): Promise<Task> {
    if (!viewer.isAdmin) throw forbidden();
    const node = await this.readable(viewer, body.taskId);
    if (node.owner_id !== null) throw fail('个人任务不能移动');
    if (node.kind === 'category' && body.parentId) throw fail('分类只能位于最顶层，不能移到其他节点下');
    if (node.kind === 'task') {
      if (!body.parentId) throw fail('任务必须位于某个分类下');
      if (body.parentId === node.id) throw fail('不能把任务移到它自己下面');
      const parent = await this.tasks.find(body.parentId);
      if (!parent || parent.owner_id !== null) throw notFound('目标分类不存在');
      if (parent.kind !== 'category') throw fail('任务只能移到分类下');
    }
    await this.repos.transaction(async (trx) => {
      const siblings = (
        body.parentId ? await this.tasks.children(body.parentId, trx) : await this.tasks.topLevel(null, trx)
      ).filter((s) => s.id !== node.id);
      const at = Math.min(body.sort ?? siblings.length, siblings.length);
      siblings.splice(at, 0, node);
      for (const [index, s] of siblings.entries()) {
        await this.tasks.update(
          s.id,
          s.id === node.id ? { parent_id: body.parentId, sort: index, updated_at: nowIso() } : { sort: index },
          trx,
        );
      }
    });
    return toTask((await this.tasks.find(node.id))!);
  }

  /** Copies a task with its templates (or a category with its tasks); copies start unpublished. */
  async copy(viewer: Viewer, taskId: string, parentId?: string | null): Promise<Task> {
    if (!viewer.isAdmin) throw forbidden();
    const source = await this.readable(viewer, taskId);
    if (source.owner_id !== null) throw fail('个人任务不能复制');
    if (source.kind === 'category') {
      if (parentId) throw fail('分类只能位于最顶层');
      const copyId = await this.repos.transaction(async (trx) => {
        const id = await this.cloneNode(
          source,
          {
            parentId: null,
            ownerId: null,
            published: false,
            suffix: '（副本）',
          },
          trx,
        );
        for (const child of await this.tasks.children(source.id, trx)) {
          await this.copyTask(viewer, child, { parentId: id, suffix: '' }, trx);
        }
        return id;
      });
      return toTask((await this.tasks.find(copyId))!);
    }
    const target = parentId ?? source.parent_id;
    const parent = target ? await this.tasks.find(target) : undefined;
    if (parent?.kind !== 'category' || parent.owner_id !== null) throw fail('任务只能复制到分类下');
    const copyId = await this.repos.transaction((trx) =>
      this.copyTask(viewer, source, { parentId: parent.id, suffix: '（副本）' }, trx),
    );
    return toTask((await this.tasks.find(copyId))!);
  }

  /** An admin's copy of a task: public and unpublished, its templates copied as drafts. */
  private async copyTask(
    viewer: Viewer,
    source: TaskRow,
    place: { parentId: string; suffix: string },
    trx: Executor,
  ): Promise<string> {
    const id = await this.cloneNode(source, { ...place, ownerId: null, published: false }, trx);
    await this.cloneTemplates(source, id, { viewer, ownerId: null, status: 'draft' }, trx);
    return id;
  }

  async copiable(
    viewer: Viewer,
    taskId: string,
    templateId?: string,
  ): Promise<{ copiable: boolean; reason: string | null }> {
    const task = await this.readable(viewer, taskId);
    if (task.kind !== 'task') return { copiable: false, reason: '只能复制任务，不能复制分类' };
    if (task.owner_id !== null) return { copiable: false, reason: '这已经是你自己的任务' };
    if (task.published !== 1) return { copiable: false, reason: '任务尚未发布' };
    const templates = (await this.templateRows.ofTasks([task.id])).filter((t) => canReadTemplate(viewer, t, task));
    if (templateId && !templates.some((t) => t.id === templateId)) {
      return { copiable: false, reason: '该模板不属于此任务或尚未发布' };
    }
    if (templates.length === 0) return { copiable: false, reason: '任务下还没有已发布的模板' };
    return { copiable: true, reason: null };
  }

  /** Copies a published task and its published templates into the user's own space (我的任务). */
  async copyToMine(viewer: Viewer, taskId: string): Promise<Task> {
    const verdict = await this.copiable(viewer, taskId);
    if (!verdict.copiable) throw fail(verdict.reason ?? '该任务不能复制');
    const source = await this.readable(viewer, taskId);
    const copyId = await this.repos.transaction(async (trx) => {
      const id = await this.cloneNode(source, { parentId: null, ownerId: viewer.id, published: true, suffix: '' }, trx);
      const templates = (await this.templateRows.ofTasks([source.id], trx)).filter((t) =>
        canReadTemplate(viewer, t, source),
      );
      await this.cloneTemplateRows(templates, id, { viewer, ownerId: viewer.id, status: 'published' }, trx);
      return id;
    });
    return toTask((await this.tasks.find(copyId))!);
  }

  private async cloneNode(
    source: TaskRow,
    options: { parentId: string | null; ownerId: string | null; published: boolean; suffix: string },
    trx: Executor,
  ): Promise<string> {
    const siblings = options.parentId
      ? await this.tasks.children(options.parentId, trx)
      : await this.tasks.topLevel(options.ownerId, trx);
    const id = newId();
    const now = nowIso();
    await this.tasks.insert(
      {
        ...source,
        id,
        parent_id: options.parentId,
        name: `${source.name}${options.suffix}`,
        published: options.published ? 1 : 0,
        sort: siblings.length,
        owner_id: options.ownerId,
        source_id: source.id,
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    return id;
  }

  private async cloneTemplates(
    source: TaskRow,
    targetId: string,
    options: { viewer: Viewer; ownerId: string | null; status: 'draft' | 'published' },
    trx: Executor,
  ) {
    await this.cloneTemplateRows(await this.templateRows.ofTasks([source.id], trx), targetId, options, trx);
  }

  private async cloneTemplateRows(
    templates: TemplateRow[],
    targetId: string,
    options: { viewer: Viewer; ownerId: string | null; status: 'draft' | 'published' },
    trx: Executor,
  ) {
    const target = (await this.tasks.find(targetId, trx))!;
    for (const t of templates) {
      await this.templates.copyInto(
        options.viewer,
        t,
        target,
        { status: options.status, nameSuffix: '', ownerId: options.ownerId },
        trx,
      );
    }
  }
}

/** A task as the tree shows it: the task without its sort and owner, keyed by its id. */
function nodeOf(row: TaskRow): TaskTreeNode {
  const { sort: _sort, ownerId: _ownerId, ...task } = toTask(row);
  return { ...task, key: row.id };
}

function templateNode(viewer: Viewer, t: TemplateRow): TaskTreeNode {
  return {
    id: t.id,
    key: t.id,
    name: editsWorkingCopy(viewer, t) ? t.name : (publishedOf(t)?.name ?? t.name),
    kind: 'template',
    parentId: t.task_id,
    icon: null,
    cover: t.cover,
    description: t.description,
    // A published version may exist while the working copy is a newer draft.
    published: t.published_json !== null,
    status: t.status as 'draft' | 'published',
  };
}
