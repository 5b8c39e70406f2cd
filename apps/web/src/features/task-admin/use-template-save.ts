import { useState } from 'react';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';
import { saveTemplate, type TemplateSaveMode } from '../../services/task-admin';
import { draftProblem, saveBodyOf, type TemplateDraft } from './template-draft';
import { useRefreshTasks } from './use-refresh-tasks';

/** The validation result shown above the editor after 保存草稿 or 发布. */
export interface SaveOutcome {
  type: 'success' | 'info' | 'error';
  title: string;
  description?: string;
}

/** 保存草稿 and 发布: checks the draft first, then lets the server validate and keeps its verdict in view. */
export function useTemplateSave() {
  const refresh = useRefreshTasks();
  const [saving, setSaving] = useState<TemplateSaveMode | null>(null);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const failedTitle = (mode: TemplateSaveMode) => (mode === 'publish' ? '发布未通过校验' : '保存失败');

  async function save(mode: TemplateSaveMode, draft: TemplateDraft): Promise<void> {
    const body = saveBodyOf(draft);
    const problem = draftProblem(body);
    if (problem) {
      setOutcome({ type: 'error', title: failedTitle(mode), description: problem });
      return;
    }
    setSaving(mode);
    try {
      const result = await saveTemplate(mode, body);
      toast(mode === 'publish' ? '发布成功' : '草稿已保存', 'success');
      setOutcome(
        mode === 'publish'
          ? {
              type: 'success',
              title: '发布成功',
              description: `校验通过，当前为第 ${result.version} 版，用户已可以使用。`,
            }
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

  return { save, saving, outcome, clearOutcome: () => setOutcome(null) };
}
