import {
  FREE_CREATION_FILTER,
  type GenerateMode,
  type Page,
  type Parameters,
  type PromptGroupItem,
  type PublicWorkDetail,
  type PublicWorkItem,
  type TemplateCoverWork,
  type UploadResult,
  type WorkDetail,
  type WorkItem,
  type WorkReactions,
  type workProfileQuerySchema,
} from '@huafang/contracts';
import type { z } from 'zod';
import { keysetOf, nextCursor } from '../../platform/db/keyset.js';
import { fail, notFound } from '../../platform/errors.js';
import { nowIso } from '../../platform/ids.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { FileService } from '../files/file.service.js';
import type { LoraRepository } from '../loras/lora.repository.js';
import type { ModelRepository } from '../models/model.repository.js';
import type { PublicationGate } from '../moderation/publication-gate.js';
import type { NoticeService } from '../notice/notice.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { OwnedWorkListRow, PublicWorkListRow, Reaction, WorkRepository, WorkRow } from './work.repository.js';
import {
  markedCopyKey,
  readWorkImage,
  signedWorkLink,
  sizedThumbKeys,
  workImageUrl,
  workThumbUrl,
} from './work-files.js';

/** The answers of 点赞 and 收藏 (docs/community.md). */
export const REACTION_MESSAGES = {
  like: { on: '已点赞', off: '已取消点赞' },
  favorite: { on: '已收藏', off: '已取消收藏' },
  gone: '作品不存在或已下架',
} as const;

/** A shared link to a work that is private, hidden or deleted: the reader cannot tell which, and need not. */
export const PUBLIC_WORK_GONE = '作品不存在或未公开';

export const COVER_MESSAGES = {
  picked: '已选用为封面，保存模板后生效',
  notCandidate: '只能选用该模板生成的公开作品或你自己的作品',
} as const;

/** What the viewer did to the works on a page: nothing for a guest. */
type ViewerReactions = { liked: Set<string>; favorited: Set<string> };
const NO_REACTIONS: ViewerReactions = { liked: new Set(), favorited: new Set() };

const DAY_MS = 86_400_000;

/** What every gallery shows of a work; `link` makes its image links (signed for private lists). */
function picture(row: OwnedWorkListRow, link: (path: string) => string) {
  return {
    id: row.id,
    thumbUrl: link(workThumbUrl(row.id)),
    url: link(workImageUrl(row.id)),
    width: row.width,
    height: row.height,
    createdAt: row.created_at,
    templateId: row.template_id,
    templateName: row.template_name,
  };
}

function item(row: OwnedWorkListRow, signer: UrlSigner): WorkItem {
  return {
    ...picture(row, (path) => signedWorkLink(signer, path, row)),
    public: row.public === 1,
  };
}

const parse = <T>(json: string) => JSON.parse(json) as T;

/** Parameters naming one of the author's uploads: initImageFileId, a ControlNet unit's inputImageFileId, … */
const isUploadId = (name: string) => /fileId$/i.test(name);

/** The parameters without any id of the author's uploads, at any depth (ControlNet units are nested). */
function withoutUploads<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUploads) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !isUploadId(name))
      .map(([name, inner]) => [name, withoutUploads(inner)]),
  ) as T;
}

const moderationOf = (value: string) => (value === 'approved' || value === 'removed' ? value : 'none');

/** Who opened a public work: the logged-in user, else the client's address and browser. */
export type Viewer = { userId: string | null; address: string; userAgent: string };

/** My gallery, the public gallery (omnibus) and its review: the rules around works after they are painted. */
export class WorkService {
  private viewsKeptFrom: string | null = null;

  constructor(
    private readonly works: WorkRepository,
    private readonly storage: Storage,
    private readonly files: FileService,
    private readonly signer: UrlSigner,
    private readonly webhooks: WebhookEvents,
    private readonly audit: AuditRecorder,
    private readonly moderation: PublicationGate,
    private readonly notices: NoticeService,
    private readonly compliance: ComplianceService,
    private readonly models: Pick<ModelRepository, 'findModel'>,
    private readonly loras: Pick<LoraRepository, 'namesOf'>,
  ) {}

  async profile(userId: string, query: z.output<typeof workProfileQuerySchema>) {
    const { current, pageSize } = query;
    // Midnight of a day where the user is: UTC midnight moved by the browser's offset.
    const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) + query.tzOffset * 60_000;
    const { rows, total } = await this.works.pageOwned(
      userId,
      {
        templateId: query.templateId === FREE_CREATION_FILTER ? null : query.templateId,
        from: query.dateFrom ? new Date(dayStart(query.dateFrom)).toISOString() : undefined,
        to: query.dateTo ? new Date(dayStart(query.dateTo) + DAY_MS).toISOString() : undefined,
        keyword: query.keyword,
      },
      { current, pageSize, after: query.cursor ? keysetOf(query.cursor, 'text') : undefined },
    );
    return {
      list: rows.map((row) => item(row, this.signer)),
      current,
      pageSize,
      total,
      nextCursor: nextCursor(rows, pageSize, (row) => ({ at: row.created_at, id: row.id })),
    } satisfies Page<WorkItem> & { nextCursor: string | null };
  }

  /** The user's works among `ids` for a zip download; any id not theirs refuses the whole download. */
  async ownedForDownload(userId: string, ids: string[]): Promise<WorkRow[]> {
    const rows = await this.works.ownedAmong(userId, ids);
    if (rows.length !== ids.length) throw notFound('作品不存在或已删除');
    return rows;
  }

  private async owned(userId: string, id: string): Promise<WorkRow> {
    const row = await this.works.findOwned(userId, id);
    if (!row) throw notFound('作品不存在');
    return row;
  }

  async detail(userId: string, id: string): Promise<WorkDetail> {
    const row = await this.owned(userId, id);
    return {
      ...item(row, this.signer),
      generationId: row.generation_id,
      stepIndex: row.step_index,
      mode: row.mode as GenerateMode,
      prompt: row.prompt,
      negativePrompt: row.negative_prompt,
      sourcePrompt: row.source_prompt,
      sourceNegativePrompt: row.source_negative_prompt,
      promptGroup: parse<PromptGroupItem[]>(row.prompt_group),
      negativePromptGroup: parse<PromptGroupItem[]>(row.negative_prompt_group),
      parameters: parse<Parameters>(row.parameters),
      seed: Number(row.seed),
      backend: row.backend,
      hidePrompt: row.hide_prompt === 1,
      views: row.views,
      moderation: row.publish_pending === 1 ? 'pending' : moderationOf(row.moderation),
    };
  }

  /** Deletes the user's works and their files; if any id is not the user's, nothing is deleted. */
  async remove(userId: string, ids: string[], origin: AuditOrigin): Promise<void> {
    const unique = [...new Set(ids)];
    const rows = await this.works.ownedAmong(userId, unique);
    if (rows.length !== unique.length) throw notFound('作品不存在或已删除');
    await this.works.deleteOwned(userId, unique);
    for (const row of rows) {
      this.audit.record({
        action: 'work.delete',
        userId,
        origin,
        target: { type: 'work', id: row.id },
        detail: { generationId: row.generation_id, public: row.public === 1, prompt: row.prompt },
      });
    }
    for (const row of rows) {
      await this.storage.remove(row.image_key);
      await this.storage.remove(row.thumb_key);
      await this.storage.remove(markedCopyKey(row.image_key));
      for (const key of sizedThumbKeys(row.thumb_key)) await this.storage.remove(key);
    }
  }

  /**
   * 发布 and 取消发布. The outcome is the row's own (see WorkRepository.setPublic): of parallel publishes one publishes
   * and is audited, the others learn the work is already public and leave no entry.
   */
  async publish(
    userId: string,
    id: string,
    makePublic: boolean,
    hidePrompt: boolean,
    origin: AuditOrigin,
  ): Promise<{ work: WorkItem; outcome: 'published' | 'changed' | 'unchanged' }> {
    const row = await this.owned(userId, id);
    // 内容审核 before a work first reaches 灵感广场 (docs/compliance.md): a flag or no verdict refuses it here.
    if (makePublic && row.public !== 1) await this.moderation.beforePublication(row, hidePrompt);
    if (!makePublic) await this.moderation.withdraw(row);
    // Re-publishing keeps the first date, so a work does not jump back to the top of 最新.
    const publishedAt = row.published_at ?? nowIso();
    // Only a work newly public is news; changing 隐藏提示词 on a public work is not.
    const outcome = await this.works.setPublic(
      id,
      {
        public: makePublic ? 1 : 0,
        hide_prompt: hidePrompt ? 1 : 0,
        published_at: makePublic ? publishedAt : row.published_at,
      },
      (trx) => this.webhooks.workPublished(userId, { id, publishedAt }, trx),
    );
    if (outcome === 'published') this.webhooks.nudge();
    if (outcome !== 'unchanged') {
      this.audit.record({
        action: makePublic ? 'work.publish' : 'work.unpublish',
        userId,
        origin,
        target: { type: 'work', id },
        detail: { wasPublic: makePublic ? outcome === 'changed' : row.public === 1, hidePrompt },
      });
    }
    return {
      work: item({ ...row, public: makePublic ? 1 : 0 }, this.signer),
      outcome,
    };
  }

  private publicItem(row: PublicWorkListRow, mine: ViewerReactions = NO_REACTIONS): PublicWorkItem {
    return {
      // Public works are served without a signature: their links are stable and cacheable.
      ...picture(row, (path) => path),
      publishedAt: row.published_at ?? row.created_at,
      views: row.views,
      likes: row.likes,
      favorites: row.favorites,
      liked: mine.liked.has(row.id),
      favorited: mine.favorited.has(row.id),
      author: {
        nickname: row.nickname ?? '画坊用户',
        avatar: row.avatar_file_id ? this.files.urlOf(row.avatar_file_id) : null,
      },
    };
  }

  private reactionsOf(userId: string | null, rows: { id: string }[]): Promise<ViewerReactions> {
    if (!userId) return Promise.resolve(NO_REACTIONS);
    return this.works.reactionsOf(
      userId,
      rows.map((row) => row.id),
    );
  }

  /** `viewerId`: the logged-in viewer, whose likes and favourites the cards show. */
  async publicPage(
    query: {
      current: number;
      pageSize: number;
      order: 'latest' | 'hot';
      categoryId?: string;
      templateId?: string;
      cursor?: string;
    },
    viewerId: string | null = null,
  ): Promise<Page<PublicWorkItem> & { nextCursor: string | null }> {
    let templateIds: string[] | undefined;
    if (query.templateId) templateIds = [query.templateId];
    else if (query.categoryId) templateIds = await this.works.templateIdsUnder(query.categoryId);
    const hot = query.order === 'hot';
    const after = query.cursor ? (hot ? keysetOf(query.cursor, 'number') : keysetOf(query.cursor, 'text')) : undefined;
    const { rows, total } = await this.works.pagePublic({ ...query, templateIds, after });
    const mine = await this.reactionsOf(viewerId, rows);
    return {
      list: rows.map((row) => this.publicItem(row, mine)),
      current: query.current,
      pageSize: query.pageSize,
      total,
      nextCursor: nextCursor(rows, query.pageSize, (row) => ({
        at: hot ? row.hot_score : (row.published_at ?? ''),
        id: row.id,
      })),
    };
  }

  /**
   * 点赞 / 收藏 and their undo. Only a work on 灵感广场 can be liked or favourited; taking one back works on any
   * work still there or not, so a user can always empty 我的收藏 of it. One per user and work however many race.
   */
  async react(userId: string, reaction: Reaction, id: string, on: boolean): Promise<WorkReactions> {
    const visible = await this.works.findPublic(id);
    if (on && !visible) throw notFound(REACTION_MESSAGES.gone);
    if (!visible && !(await this.works.find(id))) throw notFound(REACTION_MESSAGES.gone);
    await this.works.react(reaction, id, userId, on);
    const row = await this.works.find(id);
    if (!row) throw notFound(REACTION_MESSAGES.gone);
    const mine = await this.works.reactionsOf(userId, [id]);
    return {
      id,
      likes: row.likes,
      favorites: row.favorites,
      liked: mine.liked.has(id),
      favorited: mine.favorited.has(id),
    };
  }

  /** 我的收藏: favourites still on 灵感广场, the latest favourite first. */
  async favorites(userId: string, page: { current: number; pageSize: number }): Promise<Page<PublicWorkItem>> {
    const { rows, total } = await this.works.pageFavorites(userId, page);
    const mine = await this.reactionsOf(userId, rows);
    return {
      list: rows.map((row) => this.publicItem(row, mine)),
      current: page.current,
      pageSize: page.pageSize,
      total,
    };
  }

  /** 选用作品为封面 (admins): the template's public works and the admin's own, e.g. a 生成示例. */
  async coverCandidates(
    adminId: string,
    query: { templateId: string; current: number; pageSize: number },
  ): Promise<Page<TemplateCoverWork>> {
    const { rows, total } = await this.works.pageCoverCandidates(query.templateId, adminId, query);
    return {
      list: rows.map((row) => ({
        id: row.id,
        thumbUrl: signedWorkLink(this.signer, workThumbUrl(row.id), row),
        width: row.width,
        height: row.height,
        own: row.user_id === adminId,
        createdAt: row.created_at,
      })),
      current: query.current,
      pageSize: query.pageSize,
      total,
    };
  }

  /**
   * Copies a candidate's picture into a cover file of the admin's: the cover stays when the work is withdrawn or
   * deleted, and it leaves like every copy of a work, with its AIGC labels and without prompt text.
   */
  async coverFromWork(adminId: string, templateId: string, workId: string): Promise<UploadResult> {
    const row = await this.works.find(workId);
    const candidate =
      row?.template_id === templateId && ((row.public === 1 && row.hidden === 0) || row.user_id === adminId);
    if (!row || !candidate) throw fail(COVER_MESSAGES.notCandidate);
    const png = await readWorkImage(this.storage, this.compliance, row, true);
    if (!png) throw notFound('作品不存在');
    return this.files.store(adminId, await this.files.prepareImage(png));
  }

  /**
   * Opening a public work counts a view (热门 orders by them), once a day per viewer so reloads cannot push a
   * work up; prompts only when the author shows them, and never the ids of the author's uploads.
   */
  async publicDetail(id: string, viewer: Viewer): Promise<PublicWorkDetail> {
    const row = await this.works.findPublic(id);
    if (!row) throw notFound(PUBLIC_WORK_GONE);
    const counted = await this.countView(id, viewer);
    const hidden = row.hide_prompt === 1;
    const mine = await this.reactionsOf(viewer.userId, [row]);
    const parameters = hidden ? null : withoutUploads(parse<Parameters>(row.parameters));
    const modelId = parameters?.modelId;
    const model = typeof modelId === 'string' ? await this.models.findModel(modelId) : undefined;
    const loraIds = (Array.isArray(parameters?.loras) ? parameters.loras : []).flatMap((use: unknown) => {
      const id = (use as { loraId?: unknown } | null)?.loraId;
      return typeof id === 'string' ? [id] : [];
    });
    return {
      ...this.publicItem({ ...row, views: row.views + (counted ? 1 : 0) }, mine),
      mode: row.mode as GenerateMode,
      hidePrompt: hidden,
      prompt: hidden ? null : row.prompt,
      negativePrompt: hidden ? null : row.negative_prompt,
      sourcePrompt: hidden ? null : row.source_prompt,
      sourceNegativePrompt: hidden ? null : row.source_negative_prompt,
      promptGroup: hidden ? null : parse<PromptGroupItem[]>(row.prompt_group),
      negativePromptGroup: hidden ? null : parse<PromptGroupItem[]>(row.negative_prompt_group),
      parameters,
      modelName: model?.model_name ?? null,
      loraStyles: await this.loras.namesOf(loraIds),
      stepIndex: row.step_index,
    };
  }

  /** One view per viewer and day; yesterday's viewers are forgotten once a day, so the table stays small. */
  private async countView(id: string, viewer: Viewer): Promise<boolean> {
    const day = nowIso().slice(0, 10);
    if (this.viewsKeptFrom !== day) {
      this.viewsKeptFrom = day;
      await this.works.forgetViewersBefore(day);
    }
    // An anonymous viewer is kept only as a keyed hash: no address is stored.
    const key = viewer.userId
      ? `user:${viewer.userId}`
      : `anon:${this.signer.fingerprint(`${viewer.address}\n${viewer.userAgent}`)}`;
    return this.works.addView(id, key, day);
  }

  async reviewPage(status: 'all' | 'visible' | 'hidden', current: number, pageSize: number) {
    const { rows, total } = await this.works.pageReview(status, { current, pageSize });
    return {
      list: rows.map((row) => ({
        ...this.publicItem(row),
        // A hidden work no longer opens by its plain link: the admin's links are signed for it.
        ...(row.hidden === 1 ? picture(row, (path) => signedWorkLink(this.signer, path, row)) : {}),
        hidden: row.hidden === 1,
        prompt: row.prompt,
        authorId: row.user_id,
      })),
      current,
      pageSize,
      total,
    };
  }

  /** 隐藏 tells the author (once, however many admins click); 恢复显示 needs no notice. */
  async setHidden(id: string, hidden: boolean): Promise<void> {
    const row = await this.works.find(id);
    if (row?.public !== 1) throw fail('作品不存在或未发布');
    const changed = await this.works.setHidden(id, hidden);
    if (changed && hidden) await this.notices.workHidden(row);
  }
}
