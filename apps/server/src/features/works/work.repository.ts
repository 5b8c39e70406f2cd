import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import { countRows, nearerEnd, type PageRequest, pageRows } from '../../platform/db/count.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Keyset } from '../../platform/db/keyset.js';
import type { DB, WorkTable } from '../../platform/db/schema.js';
import { hotScore } from './hot-score.js';

export type WorkRow = Selectable<WorkTable>;

/** A LIKE pattern matching `text` literally anywhere. */
const contains = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/** templateId null: works made without a template (自由创作). */
export type WorkFilters = { templateId?: string | null; from?: string; to?: string; keyword?: string };

/** What 我的作品's list shows of a work (see WorkService.profile): a page reads no more. */
const OWNED_LIST_COLUMNS = [
  'id',
  'width',
  'height',
  'created_at',
  'template_id',
  'template_name',
  'public',
  'hidden',
] as const;
export type OwnedWorkListRow = Pick<WorkRow, (typeof OWNED_LIST_COLUMNS)[number]>;

/** A public work with its author, as the galleries list it. */
export type PublicWorkRow = WorkRow & { nickname: string | null; avatar_file_id: string | null };

/** What 灵感广场's list shows of a work (see WorkService.publicPage), its cursor included: a page reads no more. */
const PUBLIC_LIST_COLUMNS = [
  ...OWNED_LIST_COLUMNS.map((column) => `works.${column}` as const),
  'works.published_at',
  'works.hot_score',
  'works.views',
  'works.likes',
  'works.favorites',
  'users.nickname',
  'users.avatar_file_id',
] as const;
export type PublicWorkListRow = OwnedWorkListRow &
  Pick<WorkRow, 'published_at' | 'hot_score' | 'views' | 'likes' | 'favorites'> &
  Pick<PublicWorkRow, 'nickname' | 'avatar_file_id'>;

/** 点赞 (work_likes, counted in works.likes) or 收藏 (work_favorites, in works.favorites). */
export type Reaction = 'like' | 'favorite';
const REACTION = {
  like: { table: 'work_likes', count: 'likes' },
  favorite: { table: 'work_favorites', count: 'favorites' },
} as const;

export class WorkRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Insertable<WorkTable>, trx: Executor = this.db): Promise<void> {
    await trx.insertInto('works').values(row).execute();
  }

  async update(id: string, changes: Updateable<WorkTable>, trx: Executor = this.db): Promise<void> {
    await trx.updateTable('works').set(changes).where('id', '=', id).execute();
  }

  find(id: string): Promise<WorkRow | undefined> {
    return this.db.selectFrom('works').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwned(userId: string, id: string): Promise<WorkRow | undefined> {
    return this.db
      .selectFrom('works')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** What the image routes need: the storage keys, whether the work is public and whether its prompt is. */
  keysOf(
    id: string,
  ): Promise<Pick<WorkRow, 'image_key' | 'thumb_key' | 'public' | 'hidden' | 'hide_prompt'> | undefined> {
    return this.db
      .selectFrom('works')
      .select(['image_key', 'thumb_key', 'public', 'hidden', 'hide_prompt'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Which of these works still exist. */
  async existingIds(ids: string[]): Promise<string[]> {
    const rows = await this.db.selectFrom('works').select('id').where('id', 'in', ids).execute();
    return rows.map((row) => row.id);
  }

  listByJob(jobId: string): Promise<WorkRow[]> {
    return this.db
      .selectFrom('works')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  private ownQuery(userId: string, filters: WorkFilters) {
    let query = this.db.selectFrom('works').where('user_id', '=', userId);
    if (filters.templateId === null) query = query.where('template_id', 'is', null);
    else if (filters.templateId) query = query.where('template_id', '=', filters.templateId);
    if (filters.from) query = query.where('created_at', '>=', filters.from);
    if (filters.to) query = query.where('created_at', '<', filters.to);
    if (filters.keyword) {
      const like = contains(filters.keyword);
      query = query.where((eb) =>
        eb.or([
          eb('prompt', 'like', like),
          eb('source_prompt', 'like', like),
          eb('prompt_group', 'like', like),
          eb('template_name', 'like', like),
        ]),
      );
    }
    return query;
  }

  /** How many works the user has: the counter triggers keep with the rows (migration 0024). */
  async countOwned(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('work_counts')
      .select('works')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.works ?? 0);
  }

  /**
   * A page of the user's works, newest first: page `current`, or the `pageSize` after `after` (keyset). The page's
   * ids are picked first from the index (user_id, created_at, id) alone, then only those rows are read, and only the
   * columns a list shows. Without filters the total is the user's counter, not a count of every work on every page;
   * knowing it first, a page past the middle is picked from the oldest end, so the last of 250 pages steps over 0
   * index entries instead of 9,960.
   */
  async pageOwned(
    userId: string,
    filters: WorkFilters,
    page: PageRequest & { after?: Keyset<string> },
  ): Promise<{ rows: OwnedWorkListRow[]; total: number }> {
    const filtered = this.ownQuery(userId, filters);
    const unfiltered = filters.templateId === undefined && !filters.from && !filters.to && !filters.keyword;
    const counted = unfiltered ? this.countOwned(userId) : countRows(filtered);
    const { after, pageSize } = page;
    let ids = filtered.select('id');
    let pick = { reversed: false, offset: 0, limit: pageSize };
    if (after) ids = ids.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.at, after.id)));
    else pick.offset = (page.current - 1) * pageSize;
    // The first page needs no count to pick its rows: it is read beside the counter, not after it.
    if (!after && unfiltered && pick.offset > 0) pick = nearerEnd(await counted, pick.offset, pageSize);
    if (pick.limit === 0) return { rows: [], total: await counted };
    const direction = pick.reversed ? 'asc' : 'desc';
    const picked = ids.orderBy('created_at', direction).orderBy('id', direction).limit(pick.limit).offset(pick.offset);
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('works')
        .select(OWNED_LIST_COLUMNS)
        .where('id', 'in', picked)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
      counted,
    ]);
    return { rows, total };
  }

  /** The user's works among `ids`, in the order asked; ids of others are simply not there. */
  async ownedAmong(userId: string, ids: string[]): Promise<WorkRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('works')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async deleteOwned(userId: string, ids: string[]): Promise<void> {
    await this.db.deleteFrom('works').where('user_id', '=', userId).where('id', 'in', ids).execute();
  }

  /**
   * Sets 公开 and 隐藏提示词, each change decided by the row itself, so however many requests race only one of them
   * changes it. 'published' when this call turned a private work public: `onPublished` then ran in the same
   * transaction (the webhook outbox), so its event is kept exactly when the change is. 'changed' when only another
   * value changed (隐藏提示词, or withdrawing), 'unchanged' when the work already was as asked.
   */
  async setPublic(
    id: string,
    values: { public: number; hide_prompt: number; published_at: string | null },
    onPublished: (trx: Transaction<DB>) => Promise<void>,
  ): Promise<'published' | 'changed' | 'unchanged'> {
    return this.db.transaction().execute(async (trx) => {
      if (values.public === 1) {
        const turned = await trx
          .updateTable('works')
          .set(values)
          .where('id', '=', id)
          .where('public', '=', 0)
          .executeTakeFirst();
        if (turned.numUpdatedRows > 0n) {
          await this.refreshHot(id, trx);
          await onPublished(trx);
          return 'published';
        }
      }
      const changed = await trx
        .updateTable('works')
        .set(values)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('public', '!=', values.public), eb('hide_prompt', '!=', values.hide_prompt)]))
        .executeTakeFirst();
      return changed.numUpdatedRows > 0n ? 'changed' : 'unchanged';
    });
  }

  /** True when this call changed it: of racing hides only one tells the author. */
  async setHidden(id: string, hidden: boolean, trx: Executor = this.db): Promise<boolean> {
    const result = await trx
      .updateTable('works')
      .set({ hidden: hidden ? 1 : 0 })
      .where('id', '=', id)
      .where('hidden', '=', hidden ? 0 : 1)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Counts a view unless this viewer was already counted for the work that day; true when it counted. */
  async addView(id: string, viewer: string, day: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const seen = await trx
        .insertInto('work_views')
        .values({ work_id: id, viewer, day })
        .onConflict((oc) => oc.columns(['work_id', 'viewer', 'day']).doNothing())
        .executeTakeFirst();
      if (!seen.numInsertedOrUpdatedRows) return false;
      await trx
        .updateTable('works')
        .set((eb) => ({ views: eb('views', '+', 1) }))
        .where('id', '=', id)
        .execute();
      await this.refreshHot(id, trx);
      return true;
    });
  }

  /**
   * Stores 热门's score from the work's counts as they are now. Called in the transaction that changed them: on
   * PostgreSQL that update holds the row's lock, so racing changes each score the counts they left.
   */
  async refreshHot(id: string, trx: Executor = this.db): Promise<void> {
    const work = await trx
      .selectFrom('works')
      .select(['likes', 'favorites', 'views', 'published_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!work?.published_at) return;
    await trx
      .updateTable('works')
      .set({
        hot_score: hotScore({
          likes: work.likes,
          favorites: work.favorites,
          views: work.views,
          publishedAt: work.published_at,
        }),
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Adds (on) or takes back the user's like or favourite. The key of the reaction's table decides, however many
   * requests race: the work's count moves only with a row that was really added or removed, in one transaction.
   */
  async react(reaction: Reaction, workId: string, userId: string, on: boolean): Promise<void> {
    const { table, count } = REACTION[reaction];
    await this.db.transaction().execute(async (trx) => {
      const changed = on
        ? Number(
            (
              await trx
                .insertInto(table)
                .values({ work_id: workId, user_id: userId, created_at: new Date().toISOString() })
                .onConflict((oc) => oc.columns(['work_id', 'user_id']).doNothing())
                .executeTakeFirst()
            ).numInsertedOrUpdatedRows ?? 0,
          )
        : Number(
            (await trx.deleteFrom(table).where('work_id', '=', workId).where('user_id', '=', userId).executeTakeFirst())
              .numDeletedRows,
          );
      if (changed === 0) return;
      await trx
        .updateTable('works')
        .set((eb) => ({ [count]: eb(count, on ? '+' : '-', 1) }))
        .where('id', '=', workId)
        .execute();
      await this.refreshHot(workId, trx);
    });
  }

  /** Which of these works the user liked and favourited. */
  async reactionsOf(userId: string, workIds: string[]): Promise<{ liked: Set<string>; favorited: Set<string> }> {
    if (workIds.length === 0) return { liked: new Set(), favorited: new Set() };
    const of = (table: 'work_likes' | 'work_favorites') =>
      this.db
        .selectFrom(table)
        .select('work_id')
        .where('user_id', '=', userId)
        .where('work_id', 'in', workIds)
        .execute()
        .then((rows) => new Set(rows.map((row) => row.work_id)));
    const [liked, favorited] = await Promise.all([of('work_likes'), of('work_favorites')]);
    return { liked, favorited };
  }

  /** 我的收藏: the user's favourites still on 灵感广场, the latest favourite first. */
  pageFavorites(userId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('work_favorites')
      .innerJoin('works', 'works.id', 'work_favorites.work_id')
      .innerJoin('users', 'users.id', 'works.user_id')
      .where('work_favorites.user_id', '=', userId)
      .where('works.public', '=', 1)
      .where('works.hidden', '=', 0);
    return pageRows(query, page, (favorites) =>
      favorites
        .selectAll('works')
        .select(['users.nickname', 'users.avatar_file_id'])
        .orderBy('work_favorites.created_at', 'desc')
        .orderBy('works.id', 'desc'),
    );
  }

  /** Works made with a template that may become its cover: public ones, and the admin's own (a 生成示例). */
  pageCoverCandidates(templateId: string, adminId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('works')
      .where('template_id', '=', templateId)
      .where((eb) => eb.or([eb.and([eb('public', '=', 1), eb('hidden', '=', 0)]), eb('user_id', '=', adminId)]));
    return pageRows(query, page, (works) => works.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'));
  }

  async forgetViewersBefore(day: string): Promise<void> {
    await this.db.deleteFrom('work_views').where('day', '<', day).execute();
  }

  private publicQuery() {
    return this.db
      .selectFrom('works')
      .innerJoin('users', 'users.id', 'works.user_id')
      .where('works.public', '=', 1)
      .where('works.hidden', '=', 0);
  }

  /** How many works 灵感广场 lists: the counter triggers keep with the rows (migration 0025). */
  async countPublic(): Promise<number> {
    const row = await this.db
      .selectFrom('gallery_counts')
      .select('works')
      .where('name', '=', 'omnibus')
      .executeTakeFirst();
    return Number(row?.works ?? 0);
  }

  /**
   * Published works not hidden by an admin; `templateIds` narrows to a task category's templates. Page `current`, or
   * the `pageSize` after `after` (keyset on the order's column and id). As in pageOwned, the page's ids come first
   * from the index (public, hidden, published_at or hot_score, id), then only those rows are read with their authors;
   * without a category the total is the counter, and a page past the middle is picked from the far end.
   */
  async pagePublic(options: {
    order: 'latest' | 'hot';
    current: number;
    pageSize: number;
    templateIds?: string[];
    after?: Keyset<string | number>;
  }): Promise<{ rows: PublicWorkListRow[]; total: number }> {
    // Picked (and in a category counted) without the authors: every work's user exists (users are never deleted),
    // and joining them for each of the tens of thousands counted cost more than the page itself.
    let filtered = this.db.selectFrom('works').where('works.public', '=', 1).where('works.hidden', '=', 0);
    if (options.templateIds) {
      if (options.templateIds.length === 0) return { rows: [], total: 0 };
      filtered = filtered.where('works.template_id', 'in', options.templateIds);
    }
    const unfiltered = !options.templateIds;
    const counted = unfiltered ? this.countPublic() : countRows(filtered);
    const column = options.order === 'hot' ? 'works.hot_score' : 'works.published_at';
    const { after, pageSize } = options;
    let ids = filtered.select('works.id');
    let pick = { reversed: false, offset: 0, limit: pageSize };
    if (after) ids = ids.where((eb) => eb(eb.refTuple(column, 'works.id'), '<', eb.tuple(after.at, after.id)));
    else pick.offset = (options.current - 1) * pageSize;
    if (!after && unfiltered && pick.offset > 0) pick = nearerEnd(await counted, pick.offset, pageSize);
    if (pick.limit === 0) return { rows: [], total: await counted };
    // Turned around, the order is exactly reversed on both databases, NULLs included (PostgreSQL puts them first
    // going down and last going up, SQLite last and first), and the id makes it total.
    const direction = pick.reversed ? 'asc' : 'desc';
    const picked = ids.orderBy(column, direction).orderBy('works.id', direction).limit(pick.limit).offset(pick.offset);
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('works')
        .innerJoin('users', 'users.id', 'works.user_id')
        .select(PUBLIC_LIST_COLUMNS)
        .where('works.id', 'in', picked)
        .orderBy(column, 'desc')
        .orderBy('works.id', 'desc')
        .execute(),
      counted,
    ]);
    return { rows, total };
  }

  findPublic(id: string): Promise<PublicWorkRow | undefined> {
    return this.publicQuery()
      .selectAll('works')
      .select(['users.nickname', 'users.avatar_file_id'])
      .where('works.id', '=', id)
      .executeTakeFirst();
  }

  /** Templates under a task category (or of one task): the omnibus category filter. */
  async templateIdsUnder(taskNodeId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('templates')
      .innerJoin('task_nodes', 'task_nodes.id', 'templates.task_id')
      .select('templates.id')
      .where((eb) => eb.or([eb('task_nodes.parent_id', '=', taskNodeId), eb('task_nodes.id', '=', taskNodeId)]))
      .execute();
    return rows.map((row) => row.id);
  }

  /** 作品审核: every published work, hidden ones included. */
  pageReview(status: 'all' | 'visible' | 'hidden', page: PageRequest) {
    let query = this.db
      .selectFrom('works')
      .innerJoin('users', 'users.id', 'works.user_id')
      .where('works.public', '=', 1);
    if (status !== 'all') query = query.where('works.hidden', '=', status === 'hidden' ? 1 : 0);
    return pageRows(query, page, (works) =>
      works
        .selectAll('works')
        .select(['users.nickname', 'users.avatar_file_id'])
        .orderBy('works.published_at', 'desc')
        .orderBy('works.id', 'desc'),
    );
  }
}
