import { modelGroupBodySchema } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { createModelGroup, modelKeys, renameModelGroup } from '../../services/model';
import { toast } from '../../services/notices';
import { zodRule } from '../account/zod-rule';

interface ModelGroupDialogProps {
  open: boolean;
  /** The group being renamed; absent when adding one. */
  group?: { id: string; name: string };
  onClose: () => void;
  /** The id of the saved group, so the page can show it. */
  onSaved: (groupId: string) => void;
}

/** 新建分组 / 重命名分组: a group is one model tab on the draw page. */
export function ModelGroupDialog({ open, group, onClose, onSaved }: ModelGroupDialogProps) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (name: string) => (group ? renameModelGroup(group.id, name) : createModelGroup(name)),
    onSuccess: async ({ id }) => {
      toast(group ? '分组已重命名' : '分组已创建', 'success');
      await queryClient.invalidateQueries({ queryKey: modelKeys.menus });
      onSaved(id);
    },
  });

  return (
    <FormDialog<{ name: string }>
      open={open}
      title={group ? '重命名分组' : '新建分组'}
      width={420}
      onClose={onClose}
      submitLabel="保存"
      submitting={save.isPending}
      error={save.error?.message ?? null}
      initialValues={{ name: group?.name ?? '' }}
      onFinish={({ name }) => save.mutate(name.trim())}
    >
      <Form.Item
        name="name"
        label="分组名称"
        extra="分组是创作页模型选择里的一个标签"
        rules={[zodRule(modelGroupBodySchema.shape.name)]}
      >
        <Input placeholder="例如：写实" maxLength={20} autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
