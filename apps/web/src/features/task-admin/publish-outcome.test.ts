import { TEMPLATE_WITHOUT_PROMPTS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { publishedOutcome, taskPublishedOutcome } from './publish-outcome';
import { draftProblem, newTemplateBody } from './template-draft';

const result = (taskPublished: boolean, categoryPublished = true) => ({
  templateId: 't1',
  status: 'published' as const,
  version: 3,
  task: { id: 'task1', name: '头像', published: taskPublished },
  category: { id: 'c1', name: '人像', published: categoryPublished },
});

describe('the message after 发布', () => {
  it('says users can use it when its task and category are published', () => {
    expect(publishedOutcome(result(true), 'public')).toEqual({
      type: 'success',
      title: '发布成功',
      description: '校验通过，当前为第 3 版。用户已可以使用。',
    });
  });

  it('says users cannot see it yet while its task is 未发布, and offers 发布任务', () => {
    const outcome = publishedOutcome(result(false), 'public');
    expect(outcome).toMatchObject({ type: 'warning', title: '发布成功，但用户还看不到' });
    expect(outcome.description).toContain('所属任务「头像」还未发布');
    expect(outcome.publishTask).toEqual({ id: 'task1', name: '头像' });
    expect(taskPublishedOutcome(result(false), 'public')).toMatchObject({
      type: 'success',
      title: '任务已发布',
      description: '「头像」已发布，用户现在可以看到这个模板。',
    });
  });

  it('names a 未发布 category and a 不公开 template', () => {
    expect(publishedOutcome(result(true, false), 'public').description).toContain('所属分类「人像」还未发布');
    expect(taskPublishedOutcome(result(false, false), 'public').description).toContain('所属分类「人像」还未发布');
    expect(publishedOutcome(result(true), 'private').description).toContain('只有管理员能看到');
  });
});

describe('draftProblem', () => {
  it('refuses 发布 of a template without prompts before asking the server, but lets it be saved as a draft', () => {
    const body = newTemplateBody('task1', '空模板');
    expect(draftProblem(body, 'publish')).toBe(TEMPLATE_WITHOUT_PROMPTS);
    expect(draftProblem(body, 'draft')).toBeNull();
  });
});
