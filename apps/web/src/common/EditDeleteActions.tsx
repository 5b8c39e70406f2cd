import { Button } from 'antd';
import { ConfirmAction } from './ConfirmAction';

export interface EditDeleteActionsProps {
  onEdit: () => void;
  /** The question 删除 asks first, e.g. 删除套餐「…」？ */
  deleteTitle: string;
  /** What deleting takes away, under the question. */
  deleteDescription: string;
  onDelete: () => unknown;
  /** The row's name, for buttons that say whose they are to screen readers (编辑「…」); without it they read 编辑, 删除. */
  name?: string;
}

/** A table row's 编辑 and 删除 (which asks first), as the admin lists show them. */
export function EditDeleteActions({ onEdit, deleteTitle, deleteDescription, onDelete, name }: EditDeleteActionsProps) {
  return (
    <>
      <Button type="link" size="small" onClick={onEdit} aria-label={name === undefined ? undefined : `编辑「${name}」`}>
        编辑
      </Button>
      <ConfirmAction title={deleteTitle} description={deleteDescription} onConfirm={onDelete}>
        {name === undefined ? undefined : (
          <Button type="link" size="small" danger aria-label={`删除「${name}」`}>
            删除
          </Button>
        )}
      </ConfirmAction>
    </>
  );
}
