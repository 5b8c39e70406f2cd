import { Alert, Button } from 'antd';
import type { SaveOutcome } from './publish-outcome';

interface SaveOutcomeAlertProps {
  outcome: SaveOutcome | null;
  onClose: () => void;
  onPublishTask: () => void;
  publishingTask: boolean;
}

/** The verdict of the last 保存草稿 or 发布, kept in view until closed or the next save. */
export function SaveOutcomeAlert({ outcome, onClose, onPublishTask, publishingTask }: SaveOutcomeAlertProps) {
  if (!outcome) return null;
  return (
    <Alert
      className="hf-ta-outcome"
      type={outcome.type}
      showIcon
      title={outcome.title}
      description={outcome.description}
      action={
        outcome.publishTask && (
          <Button type="primary" size="small" loading={publishingTask} onClick={onPublishTask}>
            发布任务
          </Button>
        )
      }
      closable={{ onClose, 'aria-label': '关闭校验结果' }}
    />
  );
}
