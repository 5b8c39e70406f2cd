import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database, DbKind } from '../../platform/db/database.js';
import type { DB, GenerationJobTable, GenerationTable, PromptHistoryTable } from '../../platform/db/schema.js';

export type GenerationRow = Selectable<GenerationTable>;
export type JobRow = Selectable<GenerationJobTable>;
type Executor = Kysely<DB>;

/** Generations, their step jobs (the embedded queue's rows) and prompt history. */
export class GenerationRepository {
  constructor(
    private readonly db: Database,
    private readonly dbKind: DbKind,
  ) {}

  /**
   * Holds the user's row until the transaction ends, so one user's submits are counted one after another
   * (in every process). SQLite lets one writer in at a time already, and has no FOR UPDATE.
   */
  async lockUser(trx: Executor, userId: string): Promise<void> {
    if (this.dbKind !== 'postgres') return;
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }

  /** The user's jobs waiting in line, as the database knows them. */
  queuedJobCount(trx: Executor, userId: string): Promise<number> {
    return countRows(trx.selectFrom('generation_jobs').where('user_id', '=', userId).where('status', '=', 'queued'));
  }

  /**
   * Puts a finished generation back in line for its next step, in one conditional statement: of two next steps
   * sent at once only one finds it finished. False when a step is waiting or running, or came in meanwhile.
   */
  async claimForNextStep(
    trx: Executor,
    id: string,
    seenJobCount: number,
    patch: { current_job_id: string; updated_at: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('generations')
      .set({ ...patch, status: 'queued', job_count: seenJobCount + 1 })
      .where('id', '=', id)
      .where('job_count', '=', seenJobCount)
      .where('status', 'not in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

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
