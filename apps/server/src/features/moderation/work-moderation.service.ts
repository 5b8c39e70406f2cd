import {
  MODERATION_ITEM_KINDS,
  type ModeratedWork,
  type ModerationHistoryEntry,
  type ModerationItem,
  type ModerationItemKind,
  type ModerationQueueItem,
  type Page,
  WORK_REPORT_REASON_LABELS,
  type WorkReportReason,
} from '@huafang/contracts';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { FileService } from '../files/file.service.js';
import type { NoticeService } from '../notice/notice.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { WorkRepository } from '../works/work.repository.js';
import { signedWorkLink, workImageUrl, workThumbUrl } from '../works/work-files.js';
import type {
  ModeratedWorkRow,
  ModerationItemRow,
  QueueKind,
  WorkModerationRepository,
} from './work-moderation.repository.js';

export const REPORT_MESSAGES = {
  done: '举报已提交，我们会尽快处理',
  again: '你已经举报过这个作品，我们会尽快处理',
  own: '不能举报自己的作品',
  gone: '作品不存在或已下架',
} as const;

export const DECISION_MESSAGES = {
  approved: '已通过',
  approvedAndPublished: '已通过，作品已发布到灵感广场',
  removed: '已下架',
  nothingOpen: '这个作品没有待审核的内容，可能已被其他管理员处理',
} as const;

const kindOf = (kind: string): ModerationItemKind =>
  (MODERATION_ITEM_KINDS as string[]).includes(kind) ? (kind as ModerationItemKind) : 'report';

/** 举报 by users, and the admin side of 内容审核: the queue of flagged and reported works, decisions, history. */
export class WorkModerationService {
  constructor(
    private readonly repo: WorkModerationRepository,
    private readonly works: WorkRepository,
    private readonly files: FileService,
    private readonly signer: UrlSigner,
    private readonly webhooks: WebhookEvents,
    private readonly audit: AuditRecorder,
    private readonly notices: NoticeService,
  ) {}

  /**
   * A logged-in user reports a public work; once per user and work, even when the same report arrives twice at
   * once. The report enters the queue and the audit trail (who reported what, why).
   */
  async report(
    userId: string,
    body: { id: string; reason: WorkReportReason; detail?: string },
    origin: AuditOrigin,
  ): Promise<void> {
    const work = await this.works.findPublic(body.id);
    if (!work) throw notFound(REPORT_MESSAGES.gone);
    if (work.user_id === userId) throw fail(REPORT_MESSAGES.own);
    const added = await this.repo.addReport({
      id: newId(),
      work_id: work.id,
      kind: 'report',
      reporter_id: userId,
      verdict: null,
      reason: body.reason,
      label: WORK_REPORT_REASON_LABELS[body.reason],
      detail: body.detail ?? null,
      created_at: nowIso(),
    });
    if (!added) throw fail(REPORT_MESSAGES.again);
    this.audit.record({
      action: 'work.report',
      userId,
      origin,
      target: { type: 'work', id: work.id },
      detail: {
        authorId: work.user_id,
        reason: body.reason,
        label: WORK_REPORT_REASON_LABELS[body.reason],
        ...(body.detail ? { detail: body.detail } : {}),
      },
    });
  }

  private moderatedWork(row: ModeratedWorkRow): ModeratedWork {
    return {
      id: row.id,
      // Flagged works are private: the admin's links are signed like the author's.
      thumbUrl: signedWorkLink(this.signer, workThumbUrl(row.id), row),
      url: signedWorkLink(this.signer, workImageUrl(row.id), row),
      width: row.width,
      height: row.height,
      templateName: row.template_name,
      prompt: row.prompt,
      authorId: row.user_id,
      author: {
        nickname: row.nickname ?? '画坊用户',
        avatar: row.avatar_file_id ? this.files.urlOf(row.avatar_file_id) : null,
      },
      public: row.public === 1 && row.hidden === 0,
      publishPending: row.publish_pending === 1,
    };
  }

  private item(row: ModerationItemRow): ModerationItem {
    const kind = kindOf(row.kind);
    return {
      id: row.id,
      kind,
      verdict: row.verdict === 'block' || row.verdict === 'review' ? row.verdict : null,
      label: row.label,
      detail: row.detail,
      reporter: kind === 'report' ? (row.reporter_nickname ?? '画坊用户') : null,
      createdAt: row.created_at,
    };
  }

  async queue(kind: QueueKind, current: number, pageSize: number): Promise<Page<ModerationQueueItem>> {
    const { page, total } = await this.repo.pageQueue(kind, current, pageSize);
    const ids = page.map((entry) => entry.workId);
    const [works, items] = await Promise.all([this.repo.works(ids), this.repo.openItems(ids, kind)]);
    const list = page.flatMap(({ workId, since }) => {
      const work = works.get(workId);
      if (!work) return [];
      return [
        {
          work: this.moderatedWork(work),
          items: items.filter((item) => item.work_id === workId).map((item) => this.item(item)),
          since,
        },
      ];
    });
    return { list, current, pageSize, total };
  }

  /**
   * 通过: the work stays as it is, and one whose author asked to publish it is published now; later publications
   * skip the provider. 下架: the work leaves 灵感广场 (hidden) and can no longer be published, and its author gets a
   * notice with the reasons, in the same transaction. Either decides every open reason of the work and is recorded
   * with the admin and the time.
   */
  async decide(adminId: string, body: { id: string; decision: 'approve' | 'remove'; note?: string }): Promise<string> {
    const at = nowIso();
    // Set inside the transaction when 通过 publishes the work.
    const outcome: { published: string | null } = { published: null };
    const decided = await this.repo.decide(
      { id: newId(), workId: body.id, decision: body.decision, adminId, note: body.note ?? null },
      async (trx, work, reasons) => {
        if (body.decision === 'remove') {
          await this.works.update(work.id, { moderation: 'removed', hidden: 1, publish_pending: 0 }, trx);
          await this.notices.workRemoved(
            work,
            reasons.map((reason) => reason.label),
            trx,
          );
          return;
        }
        const publish = work.publish_pending === 1;
        if (publish) outcome.published = work.published_at ?? at;
        await this.works.update(
          work.id,
          {
            moderation: 'approved',
            publish_pending: 0,
            ...(publish ? { public: 1, published_at: outcome.published } : {}),
          },
          trx,
        );
        if (publish) await this.works.refreshHot(work.id, trx);
        if (outcome.published) {
          await this.webhooks.workPublished(work.user_id, { id: work.id, publishedAt: outcome.published }, trx);
        }
      },
      at,
    );
    if (!decided) {
      if (!(await this.works.find(body.id))) throw notFound('作品不存在或已删除');
      throw fail(DECISION_MESSAGES.nothingOpen);
    }
    if (body.decision === 'remove') return DECISION_MESSAGES.removed;
    const { published } = outcome;
    if (published === null) return DECISION_MESSAGES.approved;
    this.webhooks.nudge();
    return DECISION_MESSAGES.approvedAndPublished;
  }

  async history(current: number, pageSize: number, workId?: string): Promise<Page<ModerationHistoryEntry>> {
    const { rows, total } = await this.repo.pageDecisions({ current, pageSize }, workId);
    const works = await this.repo.works([...new Set(rows.map((row) => row.work_id))]);
    const list = rows.map((row) => {
      const work = works.get(row.work_id);
      return {
        id: row.id,
        workId: row.work_id,
        work: work ? this.moderatedWork(work) : null,
        decision: row.decision,
        admin: row.admin_name,
        adminId: row.admin_id,
        note: row.note,
        reasons: row.reasons,
        createdAt: row.created_at,
      };
    });
    return { list, current, pageSize, total };
  }
}
