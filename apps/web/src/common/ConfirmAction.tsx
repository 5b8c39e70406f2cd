import { Button, Popconfirm, type PopconfirmProps } from 'antd';
import type { ReactNode } from 'react';

interface ConfirmActionProps {
  /** The question, e.g. 删除套餐「…」？ */
  title: string;
  /** What follows from it, under the question. */
  description?: ReactNode;
  /** The confirming word; also the trigger's when there are no children. */
  okText?: string;
  /** A destructive action (the default): the confirming button is red. */
  danger?: boolean;
  disabled?: boolean;
  /** The confirming button's spinner, when the caller tracks the work itself. */
  loading?: boolean;
  /** A promise keeps the confirming button spinning until it settles. */
  onConfirm: PopconfirmProps['onConfirm'];
  /** The trigger; without one, a table row's small link with the confirming word. */
  children?: ReactNode;
}

/** An action that asks first (删除, 撤销, 停用…): one look and one wording of 取消 across the app. */
export function ConfirmAction({
  title,
  description,
  okText = '删除',
  danger = true,
  disabled,
  loading,
  onConfirm,
  children,
}: ConfirmActionProps) {
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={okText}
      cancelText="取消"
      // A loading key, even undefined, would replace the spinner antd shows while onConfirm's promise runs.
      okButtonProps={loading === undefined ? { danger } : { danger, loading }}
      disabled={disabled}
      onConfirm={onConfirm}
    >
      {children ?? (
        <Button type="link" size="small" danger={danger}>
          {okText}
        </Button>
      )}
    </Popconfirm>
  );
}
