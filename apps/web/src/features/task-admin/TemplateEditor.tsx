import { useQuery } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../common/LoadFailed';
import { taskAdminQueries } from '../../services/task-admin';
import { SaveOutcomeAlert } from './SaveOutcomeAlert';
import { TemplateDraftEditor } from './TemplateDraftEditor';
import { useTemplateSave } from './use-template-save';

interface TemplateEditorProps {
  templateId: string;
  /** Whether users have a published version of it (from the tree). */
  published: boolean;
}

/**
 * Loads a template and edits it. Each save comes back as a new detail and restarts the draft from it, so new
 * steps get their server ids; the open step tab and the last validation result stay across that.
 */
export function TemplateEditor({ templateId, published }: TemplateEditorProps) {
  const detail = useQuery(taskAdminQueries.template(templateId));
  const { save, saving, outcome, clearOutcome, publishTask, publishingTask } = useTemplateSave();
  const [activeIndex, setActiveIndex] = useState(0);

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (detail.isError) {
    return <LoadFailed title="模板加载失败" onRetry={() => detail.refetch()} />;
  }
  return (
    <>
      <SaveOutcomeAlert
        outcome={outcome}
        onClose={clearOutcome}
        onPublishTask={() => void publishTask()}
        publishingTask={publishingTask}
      />
      <TemplateDraftEditor
        key={`${detail.data.updatedAt}-${detail.data.version}-${detail.data.status}`}
        detail={detail.data}
        published={published}
        activeIndex={activeIndex}
        onActiveIndexChange={setActiveIndex}
        saving={saving}
        onSave={(mode, draft) => void save(mode, draft)}
      />
    </>
  );
}
