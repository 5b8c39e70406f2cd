import type {
  FeaturedTemplate,
  FormConfigItem,
  GenerateMode,
  PromptGroupItem,
  TaskStep,
  TaskTemplateListItem,
  TemplateDetail,
  taskStepInputSchema,
  templateFeaturedBodySchema,
  templateSaveBodySchema,
} from '@huafang/contracts';
import type { z } from 'zod';
import type { AuthUser } from '../../platform/auth/auth.plugin.js';
import type { Executor } from '../../platform/db/database.js';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import { assertOwnFileLinks } from '../files/file-links.js';
import type { ModelService } from '../models/model.service.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import { OPTION_URLS } from '../options/option-urls.js';
import type { TaskRepository, TaskRow } from '../task/task.repository.js';
import type { StepRow, TemplateRepository, TemplateRow } from './template.repository.js';
import { templateProblems } from './template-validation.js';

export type Viewer = Pick<AuthUser, 'id' | 'isAdmin'>;
type StepInput = z.output<typeof taskStepInputSchema>;

const parseJson = <T>(text: string): T => JSON.parse(text) as T;

/** How many templates the home page's 精选模板 shows. */
export const FEATURED_LIMIT = 8;

export function toStep(row: StepRow): TaskStep {
  return {
    id: row.id,
    stepIndex: row.step_index,
    name: row.name,
    generateMode: row.generate_mode as GenerateMode,
    useParentImage: row.use_parent_image === 1,
    promptGroup: parseJson<PromptGroupItem[]>(row.prompt_group),
    negativePromptGroup: parseJson<PromptGroupItem[]>(row.negative_prompt_group),
    parameters: parseJson<Record<string, unknown>>(row.parameters),
    formConfig: parseJson<FormConfigItem[]>(row.form_config),
  };
}

/** Official content is everyone's once published; a copy belongs to its owner; admins see all. */
export function canReadTask(viewer: Viewer, task: TaskRow): boolean {
  return viewer.isAdmin || task.owner_id === viewer.id || (task.owner_id === null && task.published === 1);
}

export function canWriteOwned(viewer: Viewer, ownerId: string | null): boolean {
  return ownerId === null ? viewer.isAdmin : ownerId === viewer.id;
}

/** Admins edit official templates and owners their copies: they work on the working copy, drafts included. */
export function editsWorkingCopy(viewer: Viewer, template: TemplateRow): boolean {
  return viewer.isAdmin || (template.owner_id !== null && template.owner_id === viewer.id);
}

/** Users see the published version of public official templates, and every template of their own copies. */
export function canReadTemplate(viewer: Viewer, template: TemplateRow, task: TaskRow): boolean {
  if (!canReadTask(viewer, task)) return false;
  if (editsWorkingCopy(viewer, template)) return true;
  return template.owner_id === null && template.published_json !== null && template.visibility === 'public';
}

/** The version users see; saving a draft afterwards leaves it untouched. */
export type PublishedTemplate = Pick<TemplateDetail, 'name' | 'cover' | 'description' | 'version' | 'taskStepList'>;

export function publishedOf(template: TemplateRow): PublishedTemplate | null {
  return template.published_json ? parseJson<PublishedTemplate>(template.published_json) : null;
}

/** Name, description and steps of a template as this viewer sees it. */
export function viewOf(viewer: Viewer, template: TemplateRow, workingSteps: StepRow[]): PublishedTemplate {
  if (!editsWorkingCopy(viewer, template)) {
    const published = publishedOf(template);
    if (published) return published;
  }
  return {
    name: template.name,
    cover: template.cover,
    description: template.description,
    version: template.version,
    taskStepList: workingSteps.filter((s) => s.template_id === template.id).map(toStep),
  };
}

export class TemplateService {
  private readonly templates: TemplateRepository;
  private readonly tasks: TaskRepository;

  constructor(
    private readonly repos: Repositories,
    private readonly models: ModelService,
    private readonly words: SensitiveWordFilter,
  ) {
    this.templates = repos.templates;
    this.tasks = repos.tasks;
  }

  private async readable(viewer: Viewer, templateId: string): Promise<{ template: TemplateRow; task: TaskRow }> {
    const template = await this.templates.find(templateId);
    const task = template ? await this.tasks.find(template.task_id) : undefined;
    if (!template || !task || !canReadTemplate(viewer, template, task)) throw notFound('模板不存在');
    return { template, task };
  }

  private async writable(viewer: Viewer, templateId: string): Promise<TemplateRow> {
    const { template } = await this.readable(viewer, templateId);
    if (!canWriteOwned(viewer, template.owner_id)) throw forbidden();
    return template;
  }

  async detail(viewer: Viewer, templateId: string): Promise<TemplateDetail> {
    const { template } = await this.readable(viewer, templateId);
    const editor = editsWorkingCopy(viewer, template);
    const view = viewOf(viewer, template, editor ? await this.templates.steps([template.id]) : []);
    return {
      templateId: template.id,
      taskId: template.task_id,
      ...view,
      status: (editor ? template.status : 'published') as TemplateDetail['status'],
      visibility: template.visibility as TemplateDetail['visibility'],
      ownerId: template.owner_id,
      updatedAt: template.updated_at,
      featured: template.featured === 1,
      featuredSort: template.featured_sort,
    };
  }

  /**
   * The home page's 精选模板, for anyone: only templates an admin featured, among those users can open (published,
   * public, in a published task and category), in the admin's order. None featured: none shown.
   */
  async featured(): Promise<FeaturedTemplate[]> {
    const candidates = await this.templates.featuredOfficial();
    const tasks = new Map<string, boolean>();
    const taskOpen = async (taskId: string | null): Promise<boolean> => {
      if (taskId === null) return true;
      const known = tasks.get(taskId);
      if (known !== undefined) return known;
      const task = await this.tasks.find(taskId);
      const result =
        Boolean(task && task.owner_id === null && task.published === 1) && (await taskOpen(task!.parent_id));
      tasks.set(taskId, result);
      return result;
    };
    const shown: FeaturedTemplate[] = [];
    for (const template of candidates) {
      if (shown.length >= FEATURED_LIMIT) break;
      const published = publishedOf(template);
      if (!published || !(await taskOpen(template.task_id))) continue;
      shown.push({
        templateId: template.id,
        taskId: template.task_id,
        name: published.name,
        cover: published.cover,
        description: published.description,
      });
    }
    return shown;
  }

  /** 设为精选 in the template editor: official templates only, by an admin; no new version. */
  async setFeatured(viewer: Viewer, body: z.output<typeof templateFeaturedBodySchema>): Promise<void> {
    if (!viewer.isAdmin) throw forbidden();
    const template = await this.templates.find(body.templateId);
    if (!template) throw notFound('模板不存在');
    if (template.owner_id !== null) throw fail('只有官方模板可以设为精选');
    await this.templates.update(template.id, {
      featured: body.featured ? 1 : 0,
      featured_sort: body.featuredSort,
    });
  }

  async taskOf(viewer: Viewer, templateId: string): Promise<{ task: TaskRow; category: TaskRow | null }> {
    const { task } = await this.readable(viewer, templateId);
    const category = task.parent_id ? ((await this.tasks.find(task.parent_id)) ?? null) : null;
    return { task, category };
  }

  async stepConfig(viewer: Viewer, stepId: string) {
    const step = await this.templates.findStep(stepId);
    const templateId = step?.template_id ?? (await this.templates.publishedTemplateOfStep(stepId))?.template_id;
    if (!templateId) throw notFound('步骤不存在');
    const { template } = await this.readable(viewer, templateId);
    const seen = viewOf(viewer, template, step ? [step] : []).taskStepList.find((s) => s.id === stepId);
    if (!seen) throw notFound('步骤不存在');
    const { generateMode, parameters, formConfig } = seen;
    return { stepId, templateId: template.id, generateMode, parameters, formConfig };
  }

  /** Related works are shown only for a template the viewer may read. */
  async assertReadable(viewer: Viewer, templateId: string): Promise<void> {
    await this.readable(viewer, templateId);
  }

  /** The tasks of the given task's category, each with the templates the viewer may use (spec §4 Tasks fetch). */
  async listForTask(viewer: Viewer, taskId: string): Promise<TaskTemplateListItem[]> {
    const task = await this.tasks.find(taskId);
    if (!task || !canReadTask(viewer, task)) throw notFound('任务不存在');
    if (task.kind === 'category') return this.listForCategory(viewer, task);
    const siblings = task.parent_id ? await this.tasks.children(task.parent_id) : [task];
    return this.withTemplates(
      viewer,
      siblings.filter((t) => canReadTask(viewer, t)),
    );
  }

  private async listForCategory(viewer: Viewer, category: TaskRow) {
    const tasks = (await this.tasks.children(category.id)).filter((t) => canReadTask(viewer, t));
    return this.withTemplates(viewer, tasks);
  }

  async withTemplates(viewer: Viewer, tasks: TaskRow[]): Promise<TaskTemplateListItem[]> {
    const templates = await this.templates.ofTasks(tasks.map((t) => t.id));
    const steps = await this.templates.steps(templates.map((t) => t.id));
    const byTask = new Map(tasks.map((t) => [t.id, t]));
    return tasks.map((task) => ({
      taskId: task.id,
      taskName: task.name,
      cover: task.cover,
      description: task.description,
      visTemplateList: templates
        .filter((t) => t.task_id === task.id && canReadTemplate(viewer, t, byTask.get(t.task_id)!))
        .map((t) => {
          const view = viewOf(viewer, t, steps);
          return {
            templateId: t.id,
            name: view.name,
            cover: view.cover,
            description: view.description,
            stepCount: view.taskStepList.length,
            generateMode: (view.taskStepList[0]?.generateMode ?? 'txt2img') as GenerateMode,
          };
        }),
    }));
  }

  /** Save as draft, or publish after checking every step; publishing bumps the version. */
  async save(viewer: Viewer, body: z.output<typeof templateSaveBodySchema>, publish: boolean) {
    const task = await this.tasks.find(body.taskId);
    if (!task || !canReadTask(viewer, task)) throw notFound('任务不存在');
    if (task.kind !== 'task') throw fail('模板只能放在任务下，不能直接放在分类下');
    if (!canWriteOwned(viewer, task.owner_id)) throw forbidden();
    await this.words.assertClean('templateName', body.name);
    if (publish) {
      const problems = await templateProblems(body.taskStepList, OPTION_URLS, {
        modelExists: async (id) => Boolean(await this.models.find(id)),
        loraExists: async (id) => Boolean(await this.repos.loras.find(id)),
      });
      if (problems.length > 0)
        throw fail(`无法发布：${problems[0]}${problems.length > 1 ? `（另有 ${problems.length - 1} 个问题）` : ''}`);
    }
    const now = nowIso();
    const existing = body.templateId ? await this.writable(viewer, body.templateId) : undefined;
    if (existing && existing.task_id !== body.taskId) throw fail('要把模板放到其他任务，请使用移动');
    await assertOwnFileLinks(
      this.repos.files,
      viewer,
      body,
      existing && [existing, await this.templates.steps([existing.id])],
    );
    const templateId = existing?.id ?? newId();
    const version = publish ? (existing?.version ?? 0) + 1 : (existing?.version ?? 0);
    const status = publish ? 'published' : 'draft';
    await this.repos.transaction(async (trx) => {
      const fields = {
        name: body.name,
        cover: body.cover ?? null,
        description: body.description,
        status,
        visibility: task.owner_id ? 'private' : body.visibility,
        version,
        updated_at: now,
      };
      if (existing) await this.templates.update(templateId, fields, trx);
      else {
        const siblings = await this.templates.ofTasks([task.id], trx);
        await this.templates.insert(
          {
            id: templateId,
            task_id: task.id,
            sort: siblings.length,
            owner_id: task.owner_id,
            published_json: null,
            created_at: now,
            ...fields,
          },
          trx,
        );
      }
      const rows = stepRows(templateId, body.taskStepList);
      await this.templates.replaceSteps(templateId, rows, trx);
      if (publish) {
        const published: PublishedTemplate = {
          name: body.name,
          cover: body.cover ?? null,
          description: body.description,
          version,
          taskStepList: rows.map(toStep),
        };
        await this.templates.publish(
          templateId,
          JSON.stringify(published),
          rows.map((r) => r.id),
          trx,
        );
      }
    });
    const category = task.parent_id ? await this.tasks.find(task.parent_id) : undefined;
    const place = (row: { id: string; name: string; published: number }) => ({
      id: row.id,
      name: row.name,
      published: row.published === 1,
    });
    return {
      templateId,
      status: status as 'draft' | 'published',
      version,
      task: place(task),
      category: category ? place(category) : null,
    };
  }

  /**
   * A rename is not a new version: the name changes in the working copy and in what users see, while a pending
   * draft stays a draft and the published steps stay as they were.
   */
  async rename(viewer: Viewer, templateId: string, name: string): Promise<void> {
    const template = await this.writable(viewer, templateId);
    await this.words.assertClean('templateName', name);
    const published = publishedOf(template);
    await this.templates.update(templateId, {
      name,
      updated_at: nowIso(),
      ...(published ? { published_json: JSON.stringify({ ...published, name }) } : {}),
    });
  }

  async remove(viewer: Viewer, templateId: string): Promise<void> {
    await this.writable(viewer, templateId);
    await this.repos.transaction((trx) => this.templates.delete(templateId, trx));
  }

  async removeStep(viewer: Viewer, stepId: string): Promise<void> {
    const step = await this.templates.findStep(stepId);
    if (!step) throw notFound('步骤不存在');
    await this.writable(viewer, step.template_id);
    const steps = await this.templates.steps([step.template_id]);
    if (steps.length <= 1) throw fail('模板至少保留一个步骤');
    await this.repos.transaction(async (trx) => {
      await this.templates.deleteStep(stepId, trx);
      let index = 0;
      for (const s of steps) if (s.id !== stepId) await this.templates.setStepIndex(s.id, index++, trx);
    });
  }

  /** Copies a template (steps included) into a task; the copy starts as a draft. */
  async copy(viewer: Viewer, templateId: string, targetTaskId?: string): Promise<string> {
    const { template } = await this.readable(viewer, templateId);
    if (!editsWorkingCopy(viewer, template)) throw forbidden();
    const target = await this.tasks.find(targetTaskId ?? template.task_id);
    if (target?.kind !== 'task') throw fail('模板只能复制到任务下');
    if (!canWriteOwned(viewer, target.owner_id)) throw forbidden();
    return this.copyInto(viewer, template, target, {
      status: 'draft',
      nameSuffix: targetTaskId ? '' : '（副本）',
      ownerId: target.owner_id,
    });
  }

  /** Copies what `viewer` sees of the template: the working copy for editors, else the published version. */
  async copyInto(
    viewer: Viewer,
    template: TemplateRow,
    target: TaskRow,
    options: { status: 'draft' | 'published'; nameSuffix: string; ownerId: string | null },
    trx?: Executor,
  ): Promise<string> {
    const view = viewOf(viewer, template, await this.templates.steps([template.id], trx));
    const id = newId();
    const now = nowIso();
    const name = `${view.name}${options.nameSuffix}`;
    const steps = stepRows(
      id,
      view.taskStepList.map((s) => ({ ...s, id: undefined })),
    );
    const version = options.status === 'published' ? 1 : 0;
    const published: PublishedTemplate = { ...view, name, version, taskStepList: steps.map(toStep) };
    const isPublished = options.status === 'published';
    await this.templates.insert(
      {
        id,
        task_id: target.id,
        name,
        cover: view.cover,
        description: view.description,
        status: options.status,
        visibility: options.ownerId ? 'private' : template.visibility,
        version,
        sort: (await this.templates.ofTasks([target.id], trx)).length,
        owner_id: options.ownerId,
        published_json: null,
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    await this.templates.replaceSteps(id, steps, trx);
    if (isPublished)
      await this.templates.publish(
        id,
        JSON.stringify(published),
        steps.map((s) => s.id),
        trx,
      );
    return id;
  }

  async move(viewer: Viewer, templateId: string, taskId: string, sort?: number): Promise<void> {
    const template = await this.writable(viewer, templateId);
    const target = await this.tasks.find(taskId);
    if (!target || !canReadTask(viewer, target)) throw notFound('任务不存在');
    if (target.kind !== 'task') throw fail('模板只能放在任务下，不能直接放在分类下');
    if (target.owner_id !== template.owner_id) throw fail('不能在官方任务和个人任务之间移动模板');
    await this.repos.transaction(async (trx) => {
      const siblings = (await this.templates.ofTasks([taskId], trx)).filter((t) => t.id !== templateId);
      const at = Math.min(sort ?? siblings.length, siblings.length);
      siblings.splice(at, 0, template);
      for (const [index, t] of siblings.entries()) {
        await this.templates.update(
          t.id,
          t.id === templateId ? { task_id: taskId, sort: index, updated_at: nowIso() } : { sort: index },
          trx,
        );
      }
    });
  }
}

function stepRows(templateId: string, steps: (Omit<StepInput, 'id'> & { id?: string })[]) {
  return steps.map((step, index) => ({
    // Step ids stay stable across saves so a step's config link keeps working.
    id: step.id && /^[\w-]{8,64}$/.test(step.id) ? step.id : newId(),
    template_id: templateId,
    step_index: index,
    name: step.name,
    generate_mode: step.generateMode,
    use_parent_image: step.useParentImage ? 1 : 0,
    prompt_group: JSON.stringify(step.promptGroup),
    negative_prompt_group: JSON.stringify(step.negativePromptGroup),
    parameters: JSON.stringify(step.parameters),
    form_config: JSON.stringify(step.formConfig),
  }));
}
