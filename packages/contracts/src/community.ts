import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { idOf } from './fields.js';
import { keysOf } from './keys.js';

/** 点赞 and 收藏 on 灵感广场, 我的收藏 and the notices an author gets (docs/community.md). */

/** POST /api/works/like: like (true) or take the like back (false); once per user and work. */
export const workLikeBodySchema = z.object({
  id: idOf('作品'),
  like: z.boolean({ error: '请选择点赞或取消点赞' }),
});
/** POST /api/works/favorite: add to 我的收藏 (true) or remove (false). */
export const workFavoriteBodySchema = z.object({
  id: idOf('作品'),
  favorite: z.boolean({ error: '请选择收藏或取消收藏' }),
});

/** What a like or favourite answers: the work's counts now and the user's own state. */
export const workReactionsSchema = z.object({
  id: z.string(),
  likes: z.number().int(),
  favorites: z.number().int(),
  liked: z.boolean(),
  favorited: z.boolean(),
});
export type WorkReactions = z.infer<typeof workReactionsSchema>;

/** GET /api/works/favorites: 我的收藏, the latest favourite first. */
export const workFavoritesQuerySchema = z.object({ ...pagingFields(20, 50) });

/** Why a notice was sent; the web shows the title and body as they come. */
export const NOTICE_KIND_LABELS = {
  work_removed: '作品下架',
  work_hidden: '作品隐藏',
} as const;
export type NoticeKind = keyof typeof NOTICE_KIND_LABELS;
export const NOTICE_KINDS = keysOf(NOTICE_KIND_LABELS);

export const noticeSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTICE_KINDS),
  title: z.string(),
  body: z.string(),
  /** The work it is about (its thumbnail is the author's own, signed); null once the work is deleted. */
  workId: z.string().nullable(),
  thumbUrl: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;
export const noticePageSchema = pageSchema(noticeSchema).extend({ unread: z.number().int() });
export type NoticePage = z.infer<typeof noticePageSchema>;
/** GET /api/notices: the user's notices, newest first. */
export const noticeQuerySchema = z.object({ ...pagingFields(10, 50) });
/** GET /api/notices/unread: the badge's number. */
export const noticeUnreadSchema = z.object({ unread: z.number().int() });
/** POST /api/notices/read: marks these notices (or, without ids, all of them) read. */
export const noticeReadBodySchema = z.object({
  ids: z.array(idOf('通知')).max(100, '一次最多 100 条通知').optional(),
});

/** GET /api/task/template/cover/works: works made with a template that may become its cover (admins). */
export const templateCoverWorksQuerySchema = z.object({
  templateId: idOf('模板'),
  ...pagingFields(12, 50),
});
export const templateCoverWorkSchema = z.object({
  id: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The admin's own work (e.g. a 生成示例), possibly private. */
  own: z.boolean(),
  createdAt: z.string(),
});
export type TemplateCoverWork = z.infer<typeof templateCoverWorkSchema>;
export const templateCoverWorkPageSchema = pageSchema(templateCoverWorkSchema);
/** POST /api/task/template/cover/from-work: copies the work's picture into a cover file. */
export const templateCoverFromWorkBodySchema = z.object({ templateId: idOf('模板'), workId: idOf('作品') });
