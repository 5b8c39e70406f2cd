import type { TemplateSaveResult } from '../../services/task-admin';
import type { Visibility } from './template-draft';

/** The validation result shown above the editor after 保存草稿 or 发布. */
export interface SaveOutcome {
  type: 'success' | 'info' | 'warning' | 'error';
  title: string;
  description?: string;
  /** 发布任务: the template is published but its task is 未发布, so users cannot see it yet. */
  publishTask?: { id: string; name: string };
}

/**
 * The message after 发布: whether users can see the template now. It is hidden while its task or the task's
 * category is 未发布, or while the template itself is 不公开; a 未发布 task comes with a button to publish it.
 */
export function publishedOutcome(result: TemplateSaveResult, visibility: Visibility): SaveOutcome {
  const passed = `校验通过，当前为第 ${result.version} 版。`;
  if (!result.task.published) {
    return {
      type: 'warning',
      title: '发布成功，但用户还看不到',
      description: `${passed}所属任务「${result.task.name}」还未发布，发布任务后用户才能在「任务」页看到这个模板。`,
      publishTask: { id: result.task.id, name: result.task.name },
    };
  }
  if (result.category && !result.category.published) {
    return {
      type: 'warning',
      title: '发布成功，但用户还看不到',
      description: `${passed}所属分类「${result.category.name}」还未发布，请在任务树中选中该分类并发布。`,
    };
  }
  if (visibility === 'private') {
    return {
      type: 'info',
      title: '发布成功',
      description: `${passed}模板设为不公开，只有管理员能看到。`,
    };
  }
  return { type: 'success', title: '发布成功', description: `${passed}用户已可以使用。` };
}

/** After 发布任务 from that message. */
export function taskPublishedOutcome(result: TemplateSaveResult, visibility: Visibility): SaveOutcome {
  const outcome = publishedOutcome({ ...result, task: { ...result.task, published: true } }, visibility);
  return outcome.type === 'success'
    ? { type: 'success', title: '任务已发布', description: `「${result.task.name}」已发布，用户现在可以看到这个模板。` }
    : outcome;
}
