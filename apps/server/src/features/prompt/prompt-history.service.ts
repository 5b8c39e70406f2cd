import type { Page, PromptGroupItem, PromptHistoryItem } from '@huafang/contracts';
import { notFound } from '../../platform/errors.js';
import type { Repositories } from '../../repositories.js';
import type { PromptHistoryRepository } from './prompt-history.repository.js';

/** 历史: pinned entries first, then newest; each entry is the prompt groups of one generation. */
export class PromptHistoryService {
  private readonly history: PromptHistoryRepository;

  constructor(repos: Repositories) {
    this.history = repos.promptHistory;
  }

  async page(userId: string, current: number, pageSize: number, keyword?: string): Promise<Page<PromptHistoryItem>> {
    const { rows, total } = await this.history.page(userId, { current, pageSize }, keyword);
    return {
      list: rows.map((row) => ({
        id: row.id,
        promptGroup: JSON.parse(row.prompt_group) as PromptGroupItem[],
        negativePromptGroup: JSON.parse(row.negative_prompt_group) as PromptGroupItem[],
        pin: row.pin === 1 ? 1 : 0,
        templateName: row.template_name ?? '自由创作',
        createdAt: row.created_at,
      })),
      current,
      pageSize,
      total,
    };
  }

  async setPin(userId: string, id: string, pin: 0 | 1): Promise<void> {
    if ((await this.history.setPin(userId, id, pin)) === 0) throw notFound('历史记录不存在');
  }

  /** Deletes the user's entries; if any id is not the user's, nothing is deleted. */
  async remove(userId: string, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if ((await this.history.countOwned(userId, unique)) !== unique.length) throw notFound('历史记录不存在或已删除');
    await this.history.deleteOwned(userId, unique);
  }
}
