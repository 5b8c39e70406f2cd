import type {
  FormConfigItem,
  GenerateMode,
  Page,
  PromptGroupItem,
  TaskStep,
  TaskTemplateListItem,
  TemplateDetail,
  taskStepInputSchema,
  templateSaveBodySchema,
} from '@huafang/contracts';
import type { z } from 'zod';
import type { AuthUser } from '../../platform/auth/auth.plugin.js';
import type { Database } from '../../platform/db/database.js';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { ModelService } from '../models/model.service.js';
import { OPTION_URLS } from '../options/option-urls.js';
import { TaskRepository, type TaskRow } from '../task/task.repository.js';
import { type StepRow, TemplateRepository, type TemplateRow } from './template.repository.js';
import { templateProblems } from './template-validation.js';

export type Viewer = Pick<AuthUser, 'id' | 'isAdmin'>;
type StepInput = z.output<typeof taskStepInputSchema>;

const parseJson = <T>(text: string): T => JSON.parse(text) as T;

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

/** Users see published public templates of official tasks, and every template of their own copies. */
export function canReadTemplate(viewer: Viewer, template: TemplateRow, task: TaskRow): boolean {
  if (!canReadTask(viewer, task)) return false;
  if (viewer.isAdmin || template.owner_id === viewer.id) return true;
  return template.owner_id === null && template.status === 'published' && template.visibility === 'public';
}

export class TemplateService {
  private readonly templates: TemplateRepository;
  private readonly tasks: TaskRepository;

  constructor(
    private readonly db: Database,
    private readonly models: ModelService,
  ) {
    this.templates = new TemplateRepository(db);
    this.tasks = new TaskRepository(db);
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
    const steps = await this.templates.steps([template.id]);
    return {
      templateId: template.id,
      taskId: template.task_id,
      name: template.name,
      cover: template.cover,
      description: template.description,
      status: template.status as TemplateDetail['status'],
      visibility: template.visibility as TemplateDetail['visibility'],
      version: template.version,
      ownerId: template.owner_id,
      updatedAt: template.updated_at,
      taskStepList: steps.map(toStep),
    };
  }

  async taskOf(viewer: Viewer, templateId: string): Promise<{ task: TaskRow; category: TaskRow | null }> {
    const { task } = await this.readable(viewer, templateId);
    const category = task.parent_id ? ((await this.tasks.find(task.parent_id)) ?? null) : null;
    return { task, category };
  }

  async stepConfig(viewer: Viewer, stepId: string) {
    const step = await this.templates.findStep(stepId);
    if (!step) throw notFound('步骤不存在');
    await this.readable(viewer, step.template_id);
    const { generateMode, parameters, formConfig } = toStep(step);
    return { stepId: step.id, templateId: step.template_id, generateMode, parameters, formConfig };
  }

  /** Works made with a template arrive with the generation pipeline; until then the list is honestly empty. */
  async relatedWorks(viewer: Viewer, templateId: string, current: number, pageSize: number): Promise<Page<never>> {
    await this.readable(viewer, templateId);
    return { list: [], current, pageSize, total: 0 };
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
          const own = steps.filter((s) => s.template_id === t.id);
          return {
            templateId: t.id,
            name: t.name,
            cover: t.cover,
            description: t.description,
            stepCount: own.length,
            generateMode: (own[0]?.generate_mode ?? 'txt2img') as GenerateMode,
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
    if (publish) {
      const problems = await templateProblems(body.taskStepList, OPTION_URLS, async (id) =>
        Boolean(await this.models.find(id)),
      );
      if (problems.length > 0)
        throw fail(`无法发布：${problems[0]}${problems.length > 1 ? `（另有 ${problems.length - 1} 个问题）` : ''}`);
    }
    const now = nowIso();
    const existing = body.templateId ? await this.writable(viewer, body.templateId) : undefined;
    if (existing && existing.task_id !== body.taskId) throw fail('要把模板放到其他任务，请使用移动');
    const templateId = existing?.id ?? newId();
    const version = publish ? (existing?.version ?? 0) + 1 : (existing?.version ?? 0);
    const status = publish ? 'published' : 'draft';
    await this.db.transaction().execute(async (trx) => {
      const repo = new TemplateRepository(trx);
      const fields = {
        name: body.name,
        cover: body.cover ?? null,
        description: body.description,
        status,
        visibility: task.owner_id ? 'private' : body.visibility,
        version,
        updated_at: now,
      };
      if (existing) await repo.update(templateId, fields);
      else {
        const siblings = await repo.ofTasks([task.id]);
        await repo.insert({
          id: templateId,
          task_id: task.id,
          sort: siblings.length,
          owner_id: task.owner_id,
          created_at: now,
          ...fields,
        });
      }
      await repo.replaceSteps(templateId, stepRows(templateId, body.taskStepList));
    });
    return { templateId, status: status as 'draft' | 'published', version };
  }

  async remove(viewer: Viewer, templateId: string): Promise<void> {
    await this.writable(viewer, templateId);
    await this.db.transaction().execute((trx) => new TemplateRepository(trx).delete(templateId));
  }

  async removeStep(viewer: Viewer, stepId: string): Promise<void> {
    const step = await this.templates.findStep(stepId);
    if (!step) throw notFound('步骤不存在');
    await this.writable(viewer, step.template_id);
    const steps = await this.templates.steps([step.template_id]);
    if (steps.length <= 1) throw fail('模板至少保留一个步骤');
    await this.db.transaction().execute(async (trx) => {
      const repo = new TemplateRepository(trx);
      await repo.deleteStep(stepId);
      let index = 0;
      for (const s of steps) if (s.id !== stepId) await repo.setStepIndex(s.id, index++);
    });
  }

  /** Copies a template (steps included) into a task; the copy starts as a draft. */
  async copy(viewer: Viewer, templateId: string, targetTaskId?: string): Promise<string> {
    const { template } = await this.readable(viewer, templateId);
    const target = await this.tasks.find(targetTaskId ?? template.task_id);
    if (target?.kind !== 'task') throw fail('模板只能复制到任务下');
    if (!canWriteOwned(viewer, target.owner_id)) throw forbidden();
    return this.copyInto(template, target, {
      status: 'draft',
      nameSuffix: targetTaskId ? '' : '（副本）',
      ownerId: target.owner_id,
    });
  }

  async copyInto(
    template: TemplateRow,
    target: TaskRow,
    options: { status: 'draft' | 'published'; nameSuffix: string; ownerId: string | null },
    db: Database = this.db,
  ): Promise<string> {
    const repo = new TemplateRepository(db);
    const steps = await repo.steps([template.id]);
    const id = newId();
    const now = nowIso();
    await repo.insert({
      id,
      task_id: target.id,
      name: `${template.name}${options.nameSuffix}`,
      cover: template.cover,
      description: template.description,
      status: options.status,
      visibility: options.ownerId ? 'private' : template.visibility,
      version: options.status === 'published' ? 1 : 0,
      sort: (await repo.ofTasks([target.id])).length,
      owner_id: options.ownerId,
      created_at: now,
      updated_at: now,
    });
    await repo.replaceSteps(
      id,
      steps.map((s) => ({ ...s, id: newId(), template_id: id })),
    );
    return id;
  }

  async move(viewer: Viewer, templateId: string, taskId: string, sort?: number): Promise<void> {
    const template = await this.writable(viewer, templateId);
    const target = await this.tasks.find(taskId);
    if (!target || !canReadTask(viewer, target)) throw notFound('任务不存在');
    if (target.kind !== 'task') throw fail('模板只能放在任务下，不能直接放在分类下');
    if (target.owner_id !== template.owner_id) throw fail('不能在官方任务和个人任务之间移动模板');
    await this.db.transaction().execute(async (trx) => {
      const repo = new TemplateRepository(trx);
      const siblings = (await repo.ofTasks([taskId])).filter((t) => t.id !== templateId);
      const at = Math.min(sort ?? siblings.length, siblings.length);
      siblings.splice(at, 0, template);
      for (const [index, t] of siblings.entries()) {
        await repo.update(
          t.id,
          t.id === templateId ? { task_id: taskId, sort: index, updated_at: nowIso() } : { sort: index },
        );
      }
    });
  }
}

function stepRows(templateId: string, steps: StepInput[]) {
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
