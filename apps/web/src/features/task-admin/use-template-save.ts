import { useState } from 'react';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';
import { saveTemplate, type TemplateSaveMode, updateTask } from '../../services/task-admin';
import { publishedOutcome, type SaveOutcome, taskPublishedOutcome } from './publish-outcome';
import { draftProblem, saveBodyOf, type TemplateDraft } from './template-draft';
import { useRefreshTasks } from './use-refresh-tasks';

export type { SaveOutcome } from './publish-outcome';

/**
 * 保存草稿 and 发布: checks the draft first, then lets the server validate and keeps its verdict in view; after 发布
 * into a 未发布 task, 发布任务 publishes the task from that message.
 */
export function useTemplateSave() {
  const refresh = useRefreshTasks();
  const [saving, setSaving] = useState<TemplateSaveMode | null>(null);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const [publishingTask, setPublishingTask] = useState(false);
  const [lastPublish, setLastPublish] = useState<Parameters<typeof taskPublishedOutcome> | null>(null);
  const failedTitle = (mode: TemplateSaveMode) => (mode === 'publish' ? '发布未通过校验' : '保存失败');

  async function save(mode: TemplateSaveMode, draft: TemplateDraft): Promise<void> {
    const body = saveBodyOf(draft);
    const problem = draftProblem(body, mode);
    if (problem) {
      setOutcome({ type: 'error', title: failedTitle(mode), description: problem });
      return;
    }
    setSaving(mode);
    try {
      const result = await saveTemplate(mode, body);
      toast(mode === 'publish' ? '发布成功' : '草稿已保存', 'success');
      setLastPublish(mode === 'publish' ? [result, draft.visibility] : null);
      setOutcome(
        mode === 'publish'
          ? publishedOutcome(result, draft.visibility)
          : {
              type: 'info',
              title: '草稿已保存',
              description:
                '发布前，用户看到的仍是上一次发布的版本（从未发布的模板对用户不可见）；发布时会再做完整校验。',
            },
      );
      await refresh();
    } catch (error) {
      if (!isRequestError(error)) throw error;
      setOutcome({ type: 'error', title: failedTitle(mode), description: error.message });
    } finally {
      setSaving(null);
    }
  }

  async function publishTask(): Promise<void> {
    if (!lastPublish) return;
    setPublishingTask(true);
    try {
      await updateTask(lastPublish[0].task.id, { published: true });
      toast('任务已发布', 'success');
      setOutcome(taskPublishedOutcome(...lastPublish));
      await refresh();
    } catch (error) {
      // The request layer has shown why; the message and its button stay for another try.
      if (!isRequestError(error)) throw error;
    } finally {
      setPublishingTask(false);
    }
  }

  return { save, saving, outcome, clearOutcome: () => setOutcome(null), publishTask, publishingTask };
}
