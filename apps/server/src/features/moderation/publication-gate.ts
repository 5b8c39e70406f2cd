import { promptGroupSchema } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import sharp from 'sharp';
import type { ModerationItemTable } from '../../platform/db/schema.js';
import { fail, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import {
  type ModerationProvider,
  ModerationUnavailableError,
  type ModerationVerdict,
} from '../../platform/moderation/moderation-provider.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { WorkRow } from '../works/work.repository.js';
import { signedWorkLink, workImageUrl } from '../works/work-files.js';
import type { WorkModerationRepository } from './work-moderation.repository.js';

export const MODERATION_MESSAGES = {
  removed: '作品已被管理员下架，不能发布到灵感广场',
  pending: '作品正在审核中，审核通过后将自动发布到灵感广场',
  timeout: '内容审核超时，作品暂未发布，请稍后再试',
  failed: '内容审核服务暂时不可用，作品暂未发布，请稍后再试',
  block: (labels: string) => `作品未通过内容审核（${labels}），暂不能发布到灵感广场，已提交管理员复核`,
  review: (labels: string) => `作品需要人工审核（${labels}），审核通过后将自动发布到灵感广场`,
} as const;

/** Originals above this go to the provider as a smaller JPEG (IMS takes at most 10 MB of Base64). */
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_MAX_SIDE = 2048;

/** What the public would read of a work's prompts: the prompt texts and the labels of their groups. */
export function publicText(
  work: Pick<WorkRow, 'prompt' | 'negative_prompt' | 'prompt_group' | 'negative_prompt_group'>,
) {
  const labels = (json: string) => {
    const parsed = promptGroupSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data.flatMap((item) => [item.groupName, item.promptText]) : [];
  };
  const pieces = [
    work.prompt,
    work.negative_prompt,
    ...labels(work.prompt_group),
    ...labels(work.negative_prompt_group),
  ].map((piece) => piece.trim());
  return [...new Set(pieces.filter(Boolean))].join('\n');
}

/**
 * The check before a work reaches 灵感广场 (docs/compliance.md § 内容审核): with a provider on, the original image
 * and the prompts go to it; a flag (review or block) keeps the work private and puts it in the admin queue with
 * the reason; no verdict (timeout, error) refuses the publication: fail closed. Private generation is never
 * checked. A work an admin passed (approved) is published without asking again; one taken down (removed) cannot be
 * published.
 */
export class PublicationGate {
  constructor(
    private readonly provider: ModerationProvider,
    private readonly storage: Storage,
    private readonly repo: WorkModerationRepository,
    private readonly log: FastifyBaseLogger,
    private readonly imageLink: WorkImageLink,
  ) {}

  /** Throws the Chinese message of a publication that may not happen now; returns when it may. */
  async beforePublication(work: WorkRow, hidePrompt: boolean): Promise<void> {
    if (work.moderation === 'removed') throw fail(MODERATION_MESSAGES.removed);
    if (work.publish_pending === 1) throw fail(MODERATION_MESSAGES.pending);
    if (!this.provider.enabled || work.moderation === 'approved') return;
    // Flags of an earlier try still wait for an admin: asking the provider again would only add the same ones.
    if (await this.repo.hasOpenFlags(work.id)) {
      await this.repo.setPublishPending(work.id, true, hidePrompt);
      throw fail(MODERATION_MESSAGES.pending);
    }
    const verdicts = await this.check(work);
    const flagged = verdicts.filter(({ verdict }) => verdict.decision !== 'pass');
    if (flagged.length === 0) return;
    const at = nowIso();
    await this.repo.flagForPublication(
      work.id,
      hidePrompt,
      flagged.map(
        ({ kind, verdict }): Insertable<ModerationItemTable> => ({
          id: newId(),
          work_id: work.id,
          kind,
          reporter_id: null,
          verdict: verdict.decision,
          reason: (verdict.code || 'Unknown').slice(0, 32),
          label: verdict.label.slice(0, 64),
          detail: verdict.detail.slice(0, 500) || null,
          created_at: at,
        }),
      ),
    );
    const labels = [...new Set(flagged.map(({ verdict }) => verdict.label))].join('、');
    this.log.info(
      { workId: work.id, flags: flagged.map(({ kind, verdict }) => ({ kind, ...verdict })) },
      'publication held for review',
    );
    throw fail(
      flagged.some(({ verdict }) => verdict.decision === 'block')
        ? MODERATION_MESSAGES.block(labels)
        : MODERATION_MESSAGES.review(labels),
    );
  }

  /** The author withdrew a publication that waits for review: 通过 will then leave the work private. */
  async withdraw(work: WorkRow): Promise<void> {
    if (work.publish_pending === 1) await this.repo.setPublishPending(work.id, false);
  }

  /** Image and prompts at once; either without a verdict refuses the publication (fail closed). */
  private async check(work: WorkRow): Promise<{ kind: 'image' | 'text'; verdict: ModerationVerdict }[]> {
    const stream = await this.storage.read(work.image_key);
    if (!stream) throw notFound('作品不存在');
    const image = await forProvider(await readBytes(stream));
    const text = publicText(work);
    try {
      const [imageVerdict, textVerdict] = await Promise.all([
        this.provider.checkImage(image, work.id, () => this.imageLink(work.id, work.hidden === 1)),
        text ? this.provider.checkText(text, work.id) : null,
      ]);
      return [
        { kind: 'image' as const, verdict: imageVerdict },
        ...(textVerdict ? [{ kind: 'text' as const, verdict: textVerdict }] : []),
      ];
    } catch (err) {
      if (err instanceof ModerationUnavailableError) throw fail(MODERATION_MESSAGES[err.failure]);
      throw err;
    }
  }
}

/** A fresh signed link to a work's original, absolute on the public site (for a provider that fetches it). */
export type WorkImageLink = (workId: string, hidden?: boolean) => string;

/** Links on PUBLIC_BASE_URL; without it (only Aliyun asks, and config.ts requires it there) asking throws. */
export function workImageLink(signer: UrlSigner, publicBaseUrl: string | undefined): WorkImageLink {
  return (workId, hidden = false) => {
    if (!publicBaseUrl) throw new Error('PUBLIC_BASE_URL is not set: no link a moderation provider could fetch');
    return `${publicBaseUrl}${signedWorkLink(signer, workImageUrl(workId), { hidden: hidden ? 1 : 0 })}`;
  };
}

/** The original as it is, or a JPEG at most IMAGE_MAX_SIDE wide when it is too large to send. */
async function forProvider(png: Buffer): Promise<Buffer> {
  if (png.length <= IMAGE_MAX_BYTES) return png;
  return sharp(png)
    .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 90 })
    .toBuffer();
}
