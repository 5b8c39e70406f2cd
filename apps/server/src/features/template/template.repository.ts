import type { Insertable, Selectable } from 'kysely';
import type { Database, Executor } from '../../platform/db/database.js';
import { IdTableRepository } from '../../platform/db/id-table-repository.js';
import type { TemplateStepTable, TemplateTable } from '../../platform/db/schema.js';

export type TemplateRow = Selectable<TemplateTable>;
export type StepRow = Selectable<TemplateStepTable>;

export class TemplateRepository extends IdTableRepository<'templates'> {
  constructor(db: Database) {
    super(db, 'templates');
  }

  find(id: string) {
    return this.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  ofTasks(taskIds: string[], trx: Executor = this.db) {
    if (taskIds.length === 0) return Promise.resolve([] as TemplateRow[]);
    return trx
      .selectFrom('templates')
      .selectAll()
      .where('task_id', 'in', taskIds)
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
  }

  /** Featured official public templates with a published version: the candidates for the home page's 精选模板. */
  featuredOfficial() {
    return this.db
      .selectFrom('templates')
      .selectAll()
      .where('owner_id', 'is', null)
      .where('visibility', '=', 'public')
      .where('published_json', 'is not', null)
      .where('featured', '=', 1)
      .orderBy('featured_sort')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  steps(templateIds: string[], trx: Executor = this.db) {
    if (templateIds.length === 0) return Promise.resolve([] as StepRow[]);
    return trx
      .selectFrom('template_steps')
      .selectAll()
      .where('template_id', 'in', templateIds)
      .orderBy('step_index')
      .execute();
  }

  findStep(id: string) {
    return this.db.selectFrom('template_steps').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A template goes with its steps and its published version. */
  override async delete(id: string, trx: Executor = this.db): Promise<void> {
    await trx.deleteFrom('published_steps').where('template_id', '=', id).execute();
    await trx.deleteFrom('template_steps').where('template_id', '=', id).execute();
    await super.delete(id, trx);
  }

  async replaceSteps(
    templateId: string,
    steps: Insertable<TemplateStepTable>[],
    trx: Executor = this.db,
  ): Promise<void> {
    await trx.deleteFrom('template_steps').where('template_id', '=', templateId).execute();
    if (steps.length > 0) await trx.insertInto('template_steps').values(steps).execute();
  }

  /** Records the published version: template-level JSON plus the index of its step ids. */
  async publish(templateId: string, publishedJson: string, stepIds: string[], trx: Executor = this.db): Promise<void> {
    await trx.updateTable('templates').set({ published_json: publishedJson }).where('id', '=', templateId).execute();
    await trx.deleteFrom('published_steps').where('template_id', '=', templateId).execute();
    if (stepIds.length > 0) {
      await trx
        .insertInto('published_steps')
        .values(stepIds.map((step_id) => ({ step_id, template_id: templateId })))
        .execute();
    }
  }

  publishedTemplateOfStep(stepId: string) {
    return this.db.selectFrom('published_steps').select('template_id').where('step_id', '=', stepId).executeTakeFirst();
  }

  async deleteStep(id: string, trx: Executor = this.db): Promise<void> {
    await trx.deleteFrom('template_steps').where('id', '=', id).execute();
  }

  async setStepIndex(id: string, stepIndex: number, trx: Executor = this.db): Promise<void> {
    await trx.updateTable('template_steps').set({ step_index: stepIndex }).where('id', '=', id).execute();
  }
}
