import { type ModerationReasonCount, moderationReasonCountSchema } from '@huafang/contracts';
import type { Insertable, Selectable, Transaction } from 'kysely';
import { z } from 'zod';
import { type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database } from '../../platform/db/database.js';
import type { DB, ModerationItemTable, WorkTable } from '../../platform/db/schema.js';

export type ModerationItemRow = Selectable<ModerationItemTable> & { reporter_nickname: string | null };
/** A work as the queue and history show it, with its author. */
export type ModeratedWorkRow = Selectable<WorkTable> & { nickname: string | null; avatar_file_id: string | null };
export type QueueKind = 'all' | 'flagged' | 'reported';

const reasonsSchema = z.array(moderationReasonCountSchema);

export type DecisionRow = {
  id: string;
  work_id: string;
  decision: 'approve' | 'remove';
  admin_id: string;
  admin_name: string;
  note: string | null;
  reasons: ModerationReasonCount[];
  created_at: string;
};

/** SQL of 内容审核: the open reasons of works (flags and reports), the admin queue and the decisions. */
export class WorkModerationRepository {
  constructor(private readonly db: Database) {}

  /** Adds the provider's flags of a work the author asked to publish, and marks it as waiting for a decision. */
  async flagForPublication(
    workId: string,
    hidePrompt: boolean,
    items: Insertable<ModerationItemTable>[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (items.length > 0) await trx.insertInto('moderation_items').values(items).execute();
      await trx
        .updateTable('works')
        .set({ publish_pending: 1, hide_prompt: hidePrompt ? 1 : 0 })
        .where('id', '=', workId)
        .execute();
    });
  }

  async setPublishPending(workId: string, pending: boolean, hidePrompt?: boolean): Promise<void> {
    await this.db
      .updateTable('works')
      .set({
        publish_pending: pending ? 1 : 0,
        ...(hidePrompt === undefined ? {} : { hide_prompt: hidePrompt ? 1 : 0 }),
      })
      .where('id', '=', workId)
      .execute();
  }

  /** Whether the provider's flags of this work still wait for a decision. */
  async hasOpenFlags(workId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('moderation_items')
      .select('id')
      .where('work_id', '=', workId)
      .where('kind', '!=', 'report')
      .where('decision_id', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A user's report; false when this user already reported the work (the unique key decides, even at once). */
  async addReport(item: Insertable<ModerationItemTable>): Promise<boolean> {
    const result = await this.db
      .insertInto('moderation_items')
      .values(item)
      .onConflict((oc) => oc.columns(['work_id', 'reporter_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  private openQuery(kind: QueueKind) {
    let query = this.db.selectFrom('moderation_items').where('decision_id', 'is', null);
    if (kind === 'flagged') query = query.where('kind', '!=', 'report');
    if (kind === 'reported') query = query.where('kind', '=', 'report');
    return query;
  }

  /** Works with open reasons of `kind`, the longest-waiting first, with when their oldest reason came. */
  async pageQueue(kind: QueueKind, current: number, pageSize: number) {
    const grouped = this.openQuery(kind)
      .select((eb) => ['work_id', eb.fn.min('created_at').as('since')])
      .groupBy('work_id');
    const [page, total] = await Promise.all([
      grouped
        .orderBy('since')
        .orderBy('work_id')
        .limit(pageSize)
        .offset((current - 1) * pageSize)
        .execute(),
      this.db
        .selectFrom(grouped.as('queued'))
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { page: page.map((row) => ({ workId: row.work_id, since: String(row.since) })), total: Number(total.n) };
  }

  /** The open reasons of these works, oldest first, with the reporters' nicknames. */
  openItems(workIds: string[], kind: QueueKind): Promise<ModerationItemRow[]> {
    if (workIds.length === 0) return Promise.resolve([]);
    return this.openQuery(kind)
      .leftJoin('users', 'users.id', 'moderation_items.reporter_id')
      .selectAll('moderation_items')
      .select('users.nickname as reporter_nickname')
      .where('work_id', 'in', workIds)
      .orderBy('moderation_items.created_at')
      .orderBy('moderation_items.id')
      .execute();
  }

  /** Works with their authors, by id (those deleted since are missing). */
  async works(ids: string[]): Promise<Map<string, ModeratedWorkRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('works')
      .innerJoin('users', 'users.id', 'works.user_id')
      .selectAll('works')
      .select(['users.nickname', 'users.avatar_file_id'])
      .where('works.id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Decides every open reason of a work in one transaction: closes them, applies `apply` to the work and records
   * the decision. Null when none was open (nothing to decide, or another admin decided first: the rows are
   * locked by the first update, so the second finds them closed).
   */
  async decide(
    decision: { id: string; workId: string; decision: 'approve' | 'remove'; adminId: string; note: string | null },
    apply: (trx: Transaction<DB>, work: Selectable<WorkTable>, reasons: ModerationReasonCount[]) => Promise<void>,
    at: string,
  ): Promise<{ reasons: ModerationReasonCount[]; work: Selectable<WorkTable> } | null> {
    return this.db.transaction().execute(async (trx) => {
      const closed = await trx
        .updateTable('moderation_items')
        .set({ decision_id: decision.id })
        .where('work_id', '=', decision.workId)
        .where('decision_id', 'is', null)
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) === 0) return null;
      const work = await trx.selectFrom('works').selectAll().where('id', '=', decision.workId).executeTakeFirst();
      if (!work) return null;
      const items = await trx
        .selectFrom('moderation_items')
        .select(['kind', 'label'])
        .where('decision_id', '=', decision.id)
        .orderBy('created_at')
        .execute();
      const counts = new Map<string, ModerationReasonCount>();
      for (const item of items) {
        const key = `${item.kind}\n${item.label}`;
        const entry = counts.get(key) ?? {
          kind: item.kind as ModerationReasonCount['kind'],
          label: item.label,
          count: 0,
        };
        entry.count += 1;
        counts.set(key, entry);
      }
      const reasons = [...counts.values()];
      await apply(trx, work, reasons);
      await trx
        .insertInto('moderation_decisions')
        .values({
          id: decision.id,
          work_id: decision.workId,
          decision: decision.decision,
          admin_id: decision.adminId,
          note: decision.note,
          reasons: JSON.stringify(reasons),
          created_at: at,
        })
        .execute();
      return { reasons, work };
    });
  }

  /** Decisions newest first, with the deciding admin's name; `workId` keeps one work's. */
  async pageDecisions(page: PageRequest, workId?: string) {
    let query = this.db.selectFrom('moderation_decisions');
    if (workId) query = query.where('moderation_decisions.work_id', '=', workId);
    const { rows, total } = await pageRows(query, page, (decisions) =>
      decisions
        .leftJoin('users', 'users.id', 'moderation_decisions.admin_id')
        .selectAll('moderation_decisions')
        .select(['users.nickname', 'users.account'])
        .orderBy('moderation_decisions.created_at', 'desc')
        .orderBy('moderation_decisions.id', 'desc'),
    );
    return {
      rows: rows.map(
        (row): DecisionRow => ({
          id: row.id,
          work_id: row.work_id,
          decision: row.decision === 'remove' ? 'remove' : 'approve',
          admin_id: row.admin_id,
          admin_name: row.nickname ?? row.account ?? '管理员',
          note: row.note,
          reasons: reasonsSchema.parse(JSON.parse(row.reasons)),
          created_at: row.created_at,
        }),
      ),
      total,
    };
  }
}
