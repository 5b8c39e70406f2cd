import type { HelpBody, HelpRequest, HelpType, Page, PageQuery } from '@huafang/contracts';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { Repositories } from '../../repositories.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import type { HelpRepository } from './help.repository.js';

export const DEMO_HELP_TYPES = ['账号与登录', '生成与额度', '作品与画廊', '功能建议', '其他问题'];

export class HelpService {
  private readonly help: HelpRepository;

  constructor(
    repos: Repositories,
    private readonly words: SensitiveWordFilter,
  ) {
    this.help = repos.help;
  }

  types(): Promise<HelpType[]> {
    return this.help.listTypes();
  }

  async submit(userId: string, body: HelpBody): Promise<void> {
    if (!(await this.help.findType(body.typeId))) throw fail('问题类型不存在，请重新选择');
    await this.words.assertClean('helpContent', body.content);
    await this.words.assertClean('helpContact', body.contact);
    await this.help.insertRequest({
      id: newId(),
      user_id: userId,
      type_id: body.typeId,
      content: body.content,
      contact: body.contact || null,
      created_at: nowIso(),
    });
  }

  async page(query: PageQuery): Promise<Page<HelpRequest>> {
    const { rows, total } = await this.help.page(query);
    return { list: rows, current: query.current, pageSize: query.pageSize, total };
  }

  /** Seeds the help categories once; later edits by admins are kept. */
  async seedTypes(): Promise<void> {
    if ((await this.help.countTypes()) > 0) return;
    for (const [sort, name] of DEMO_HELP_TYPES.entries()) {
      await this.help.insertType({ id: newId(), name, sort });
    }
  }
}
