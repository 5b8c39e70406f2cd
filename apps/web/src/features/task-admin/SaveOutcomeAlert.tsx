import { Alert } from 'antd';
import type { SaveOutcome } from './use-template-save';

interface SaveOutcomeAlertProps {
  outcome: SaveOutcome | null;
  onClose: () => void;
}

/** The verdict of the last 保存草稿 or 发布, kept in view until closed or the next save. */
export function SaveOutcomeAlert({ outcome, onClose }: SaveOutcomeAlertProps) {
  if (!outcome) return null;
  return (
    <Alert
      className="hf-ta-outcome"
      type={outcome.type}
      showIcon
      title={outcome.title}
      description={outcome.description}
      closable={{ onClose, 'aria-label': '关闭校验结果' }}
    />
  );
}
