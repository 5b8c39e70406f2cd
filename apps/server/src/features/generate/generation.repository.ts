import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { DB, GenerationJobTable, GenerationTable, PromptHistoryTable } from '../../platform/db/schema.js';

export type GenerationRow = Selectable<GenerationTable>;
export type JobRow = Selectable<GenerationJobTable>;
type Executor = Kysely<DB>;

/** Generations, their step jobs (the embedded queue's rows) and prompt history. */
export class GenerationRepository {
  constructor(private readonly db: Database) {}

  async insertGeneration(executor: Executor, row: Insertable<GenerationTable>): Promise<void> {
    await executor.insertInto('generations').values(row).execute();
  }

  async insertJob(executor: Executor, row: Insertable<GenerationJobTable>): Promise<void> {
    await executor.insertInto('generation_jobs').values(row).execute();
  }

  async insertPromptHistory(executor: Executor, row: Insertable<PromptHistoryTable>): Promise<void> {
    await executor.insertInto('prompt_history').values(row).execute();
  }

  findGeneration(id: string, executor: Executor = this.db): Promise<GenerationRow | undefined> {
    return executor.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findJob(id: string, executor: Executor = this.db): Promise<JobRow | undefined> {
    return executor.selectFrom('generation_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Queued and running jobs in submit order: what the queue loads at start. */
  unfinishedJobs(): Promise<JobRow[]> {
    return this.db
      .selectFrom('generation_jobs')
      .selectAll()
      .where('status', 'in', ['queued', 'running'])
      .orderBy('queued_at')
      .orderBy('id')
      .execute();
  }

  latestUnfinished(userId: string): Promise<GenerationRow | undefined> {
    return this.db
      .selectFrom('generations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('updated_at', 'desc')
      .executeTakeFirst();
  }

  async updateJob(id: string, patch: Updateable<GenerationJobTable>, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('generation_jobs').set(patch).where('id', '=', id).execute();
  }

  async updateGeneration(id: string, patch: Updateable<GenerationTable>, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('generations').set(patch).where('id', '=', id).execute();
  }
}
