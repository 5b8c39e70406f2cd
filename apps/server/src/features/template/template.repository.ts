import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { TemplateStepTable, TemplateTable } from '../../platform/db/schema.js';

export type TemplateRow = Selectable<TemplateTable>;
export type StepRow = Selectable<TemplateStepTable>;

export class TemplateRepository {
  constructor(private readonly db: Database) {}

  find(id: string) {
    return this.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  ofTasks(taskIds: string[]) {
    if (taskIds.length === 0) return Promise.resolve([] as TemplateRow[]);
    return this.db
      .selectFrom('templates')
      .selectAll()
      .where('task_id', 'in', taskIds)
      .orderBy('sort')
      .orderBy('created_at')
      .execute();
  }

  /** Official public templates with a published version: the candidates for the home page's 精选模板. */
  publishedOfficial(featuredOnly: boolean) {
    let query = this.db
      .selectFrom('templates')
      .selectAll()
      .where('owner_id', 'is', null)
      .where('visibility', '=', 'public')
      .where('published_json', 'is not', null);
    if (featuredOnly) query = query.where('featured', '=', 1);
    return query.orderBy('featured_sort').orderBy('created_at', 'desc').orderBy('id').execute();
  }

  steps(templateIds: string[]) {
    if (templateIds.length === 0) return Promise.resolve([] as StepRow[]);
    return this.db
      .selectFrom('template_steps')
      .selectAll()
      .where('template_id', 'in', templateIds)
      .orderBy('step_index')
      .execute();
  }

  findStep(id: string) {
    return this.db.selectFrom('template_steps').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Insertable<TemplateTable>): Promise<void> {
    await this.db.insertInto('templates').values(row).execute();
  }

  async update(id: string, changes: Updateable<TemplateTable>): Promise<void> {
    await this.db.updateTable('templates').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('published_steps').where('template_id', '=', id).execute();
    await this.db.deleteFrom('template_steps').where('template_id', '=', id).execute();
    await this.db.deleteFrom('templates').where('id', '=', id).execute();
  }

  async replaceSteps(templateId: string, steps: Insertable<TemplateStepTable>[]): Promise<void> {
    await this.db.deleteFrom('template_steps').where('template_id', '=', templateId).execute();
    if (steps.length > 0) await this.db.insertInto('template_steps').values(steps).execute();
  }

  /** Records the published version: template-level JSON plus the index of its step ids. */
  async publish(templateId: string, publishedJson: string, stepIds: string[]): Promise<void> {
    await this.db
      .updateTable('templates')
      .set({ published_json: publishedJson })
      .where('id', '=', templateId)
      .execute();
    await this.db.deleteFrom('published_steps').where('template_id', '=', templateId).execute();
    if (stepIds.length > 0) {
      await this.db
        .insertInto('published_steps')
        .values(stepIds.map((step_id) => ({ step_id, template_id: templateId })))
        .execute();
    }
  }

  publishedTemplateOfStep(stepId: string) {
    return this.db.selectFrom('published_steps').select('template_id').where('step_id', '=', stepId).executeTakeFirst();
  }

  async deleteStep(id: string): Promise<void> {
    await this.db.deleteFrom('template_steps').where('id', '=', id).execute();
  }

  async setStepIndex(id: string, stepIndex: number): Promise<void> {
    await this.db.updateTable('template_steps').set({ step_index: stepIndex }).where('id', '=', id).execute();
  }
}
