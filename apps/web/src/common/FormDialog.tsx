import { Form, type FormProps, Modal } from 'antd';
import type { ReactNode } from 'react';
import { DialogActions } from './DialogActions';

interface FormDialogProps<Values>
  extends Pick<FormProps<Values>, 'form' | 'initialValues' | 'onFinish' | 'onValuesChange'> {
  open: boolean;
  title: string;
  /** antd's default (520) when absent. */
  width?: number;
  onClose: () => void;
  submitLabel: string;
  submitting: boolean;
  /** Why the last submit failed; dialogs that report failures only as toasts omit it. */
  error?: string | null;
  /** Shown above the form, e.g. whose credits change. */
  intro?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
}

/**
 * A dialog that is one form (新建…, 编辑…, 添加…): the fields, then 取消 and the submit button. It forgets what was
 * typed when it closes, so every opening starts from `initialValues`.
 */
export function FormDialog<Values>({
  open,
  title,
  width,
  onClose,
  submitLabel,
  submitting,
  error,
  intro,
  children,
  ...formProps
}: FormDialogProps<Values>) {
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} width={width} destroyOnHidden>
      {intro}
      <Form<Values> {...formProps} layout="vertical" requiredMark={false}>
        {children}
        <DialogActions submitLabel={submitLabel} submitting={submitting} onCancel={onClose} error={error} />
      </Form>
    </Modal>
  );
}
