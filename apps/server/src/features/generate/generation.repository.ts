import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Database, DbKind } from '../../platform/db/database.js';
import type { DB, GenerationJobTable, GenerationTable, PromptHistoryTable } from '../../platform/db/schema.js';
import { nowIso } from '../../platform/ids.js';
import { promptHistoryKey } from '../prompt/prompt-history-key.js';

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
  async lockUser(userId: string, trx: Executor): Promise<void> {
    if (this.dbKind !== 'postgres') return;
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }

  /** The user's jobs waiting in line, as the database knows them. */
  queuedJobCount(userId: string, trx: Executor = this.db): Promise<number> {
    return countRows(trx.selectFrom('generation_jobs').where('user_id', '=', userId).where('status', '=', 'queued'));
  }

  /**
   * Puts a finished generation back in line for its next step, in one conditional statement: of two next steps
   * sent at once only one finds it finished. False when a step is waiting or running, or came in meanwhile.
   */
  async claimForNextStep(
    id: string,
    seenJobCount: number,
    patch: { current_job_id: string; updated_at: string },
    trx: Executor = this.db,
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

  async insertGeneration(row: Insertable<GenerationTable>, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('generations').values(row).execute();
  }

  async insertJob(row: Insertable<GenerationJobTable>, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('generation_jobs').values(row).execute();
  }

  /**
   * The run's words in the user's history: the same words as an entry already there move that entry up (its pin
   * stays) instead of adding one. One statement on the unique (user, words) index, so saves at once cannot both add.
   */
  async savePromptHistory(
    row: Omit<Insertable<PromptHistoryTable>, 'content_key'>,
    executor: Executor = this.db,
  ): Promise<void> {
    const content_key = promptHistoryKey(row.prompt_group, row.negative_prompt_group);
    await executor
      .insertInto('prompt_history')
      .values({ ...row, content_key })
      .onConflict((oc) =>
        oc.columns(['user_id', 'content_key']).doUpdateSet({
          generation_id: row.generation_id,
          prompt_group: row.prompt_group,
          negative_prompt_group: row.negative_prompt_group,
          created_at: row.created_at,
        }),
      )
      .execute();
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

  /**
   * Marks a job running for the run about to paint it, unless it was settled meanwhile (cancelled as it was
   * handed out): false then, and the run does nothing.
   */
  async claimJob(id: string, patch: Updateable<GenerationJobTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('generation_jobs')
      .set({ ...patch, status: 'running' })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Whether the run that claimed the job at `claimedAt` (its started_at) still holds it: nobody settled it or
   * took it over since. On PostgreSQL the job row stays locked until `trx` ends, so a takeover's claim waits for
   * what this run writes in it.
   */
  async holdsClaim(id: string, claimedAt: string, trx: Executor): Promise<boolean> {
    let query = trx.selectFrom('generation_jobs').select(['status', 'started_at']).where('id', '=', id);
    if (this.dbKind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row?.status === 'running' && row.started_at === claimedAt;
  }

  /** A job left running (its process died or lost it) waits again; false when it was settled meanwhile. */
  async releaseClaim(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('generation_jobs')
      .set({ status: 'queued', backend_id: null, started_at: null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Scale-out mode: moves the user's oldest backlog jobs to "handed to BullMQ" while fewer than `quota` are
   * handed or running, under the user's lock so two processes never hand out the same room twice.
   */
  async handOver(userId: string, quota: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockUser(userId, trx);
      const busy = await countRows(
        trx
          .selectFrom('generation_jobs')
          .where('user_id', '=', userId)
          .where('status', 'in', ['queued', 'running'])
          .where('handed_at', 'is not', null),
      );
      if (busy >= quota) return [];
      const next = await trx
        .selectFrom('generation_jobs')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '=', 'queued')
        .where('handed_at', 'is', null)
        .orderBy('queued_at')
        .orderBy('id')
        .limit(quota - busy)
        .execute();
      const ids = next.map((row) => row.id);
      if (ids.length > 0) {
        await trx.updateTable('generation_jobs').set({ handed_at: nowIso() }).where('id', 'in', ids).execute();
      }
      return ids;
    });
  }

  /** Scale-out mode: jobs handed to BullMQ and not finished, and users with a backlog (for the sweep). */
  async handedUnfinished(): Promise<{ id: string; user_id: string }[]> {
    return this.db
      .selectFrom('generation_jobs')
      .select(['id', 'user_id'])
      .where('status', 'in', ['queued', 'running'])
      .where('handed_at', 'is not', null)
      .execute();
  }

  async usersWithBacklog(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('generation_jobs')
      .select('user_id')
      .distinct()
      .where('status', '=', 'queued')
      .where('handed_at', 'is', null)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** Jobs waiting or running, oldest first, with what the line and the ETA need. */
  waitingAndRunning() {
    return this.db
      .selectFrom('generation_jobs')
      .select(['id', 'generation_id', 'user_id', 'status', 'handed_at', 'started_at', 'payload', 'attempts'])
      .where('status', 'in', ['queued', 'running'])
      .orderBy('queued_at')
      .orderBy('id')
      .execute();
  }

  async updateJob(id: string, patch: Updateable<GenerationJobTable>, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('generation_jobs').set(patch).where('id', '=', id).execute();
  }

  async updateGeneration(id: string, patch: Updateable<GenerationTable>, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('generations').set(patch).where('id', '=', id).execute();
  }
}
