import type { Notice, NoticeKind, NoticePage } from '@huafang/contracts';
import type { PageRequest } from '../../platform/db/count.js';
import type { Executor } from '../../platform/db/database.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { signedWorkLink, workThumbUrl } from '../works/work-files.js';
import type { NoticeRepository, NoticeRow } from './notice.repository.js';

/** A work as a notice names it. */
export type NoticedWork = { id: string; user_id: string; template_name: string; prompt: string };

const PROMPT_SHOWN = 16;

/** 「模板名」 and the start of the prompt, so the author knows which work it was even after deleting it. */
function describe(work: NoticedWork): string {
  const prompt = work.prompt.trim();
  const start = prompt.length > PROMPT_SHOWN ? `${prompt.slice(0, PROMPT_SHOWN)}…` : prompt;
  return start ? `「${work.template_name}」作品（${start}）` : `「${work.template_name}」作品`;
}

const APPEAL = '如有异议，可通过「帮助与反馈」联系我们。';

/** 通知: an author is told when a work of theirs is taken down, and why (docs/community.md). */
export class NoticeService {
  constructor(
    private readonly notices: NoticeRepository,
    private readonly signer: UrlSigner,
  ) {}

  /** 下架 in 作品审核 › 待审核: the reasons are the report and check labels the admin decided on. */
  async workRemoved(work: NoticedWork, reasons: string[], trx: Executor): Promise<void> {
    const why = reasons.length > 0 ? `，原因：${[...new Set(reasons)].join('、')}` : '';
    await this.add(
      'work_removed',
      work,
      '作品已被下架',
      `你的${describe(work)}经审核已从灵感广场下架${why}。下架的作品不能再次发布，你仍可在「我的作品」中查看。${APPEAL}`,
      trx,
    );
  }

  /** 隐藏 in 作品审核 › 已发布. */
  async workHidden(work: NoticedWork, trx?: Executor): Promise<void> {
    await this.add(
      'work_hidden',
      work,
      '作品已从灵感广场隐藏',
      `你的${describe(work)}已被管理员从灵感广场隐藏，其他人暂时看不到它，你仍可在「我的作品」中查看。${APPEAL}`,
      trx,
    );
  }

  private add(kind: NoticeKind, work: NoticedWork, title: string, body: string, trx?: Executor): Promise<void> {
    return this.notices.insert(
      { id: newId(), user_id: work.user_id, kind, work_id: work.id, title, body, read_at: null, created_at: nowIso() },
      trx,
    );
  }

  private notice(row: NoticeRow): Notice {
    return {
      id: row.id,
      kind: row.kind === 'work_hidden' ? 'work_hidden' : 'work_removed',
      title: row.title,
      body: row.body,
      workId: row.thumb_key ? row.work_id : null,
      // The author's own link, signed for the work as it is now (hidden works open only so).
      thumbUrl:
        row.thumb_key && row.work_id
          ? signedWorkLink(this.signer, workThumbUrl(row.work_id), { hidden: row.hidden ?? 0 })
          : null,
      read: row.read_at !== null,
      createdAt: row.created_at,
    };
  }

  async page(userId: string, page: PageRequest): Promise<NoticePage> {
    const [{ rows, total }, unread] = await Promise.all([this.notices.page(userId, page), this.notices.unread(userId)]);
    return { list: rows.map((row) => this.notice(row)), current: page.current, pageSize: page.pageSize, total, unread };
  }

  unread(userId: string): Promise<number> {
    return this.notices.unread(userId);
  }

  markRead(userId: string, ids?: string[]): Promise<void> {
    return this.notices.markRead(userId, ids, nowIso());
  }
}
