import { Button, Space } from 'antd';
import { SubmitError } from './SubmitError';
import './dialog-actions.css';

interface DialogActionsProps {
  submitLabel: string;
  submitting: boolean;
  onCancel: () => void;
  cancelLabel?: string;
  /** Why the last submit failed, shown above the buttons; dialogs that report failures only as toasts omit it. */
  error?: string | null;
}

/** The foot of a form dialog: the last submit's failure, then 取消 and the submit button. */
export function DialogActions({ submitLabel, submitting, onCancel, cancelLabel = '取消', error }: DialogActionsProps) {
  return (
    <>
      {error !== undefined && <SubmitError error={error} />}
      <Space className="hf-dialog-actions">
        <Button onClick={onCancel}>{cancelLabel}</Button>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {submitLabel}
        </Button>
      </Space>
    </>
  );
}
