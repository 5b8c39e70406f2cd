import { templateRenameBodySchema } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { FormDialog } from '../../common/FormDialog';
import { toast } from '../../services/notices';
import { taskKeys } from '../../services/task';
import { deleteTemplate, renameTemplate } from '../../services/task-admin';
import { zodRule } from '../account/zod-rule';

interface OwnTemplateActionsProps {
  taskId: string;
  template: { templateId: string; name: string };
}

/** 重命名 and 删除 of a template in one's own copied task. */
export function OwnTemplateActions({ taskId, template }: OwnTemplateActionsProps) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: taskKeys.templateList(taskId) }),
      queryClient.invalidateQueries({ queryKey: taskKeys.tree('/mine') }),
    ]);
  const rename = useMutation({
    mutationFn: (name: string) => renameTemplate(template.templateId, name),
    onSuccess: async (_data, name) => {
      toast(`已重命名为「${name}」`, 'success');
      await refresh();
      setRenaming(false);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteTemplate(template.templateId),
    onSuccess: async () => {
      toast(`已删除模板「${template.name}」`, 'success');
      await refresh();
    },
  });

  return (
    <Space className="hf-own-template-actions">
      <Button size="small" onClick={() => setRenaming(true)} aria-label={`重命名「${template.name}」`}>
        重命名
      </Button>
      <ConfirmAction
        title={`删除模板「${template.name}」？`}
        loading={remove.isPending}
        onConfirm={() => remove.mutateAsync().catch(() => undefined)}
      >
        <Button size="small" danger aria-label={`删除「${template.name}」`}>
          删除
        </Button>
      </ConfirmAction>
      <FormDialog<{ name: string }>
        open={renaming}
        title="重命名模板"
        onClose={() => setRenaming(false)}
        submitLabel="保存"
        submitting={rename.isPending}
        error={rename.error?.message ?? null}
        initialValues={{ name: template.name }}
        onFinish={({ name }) => rename.mutate(name.trim())}
      >
        <Form.Item name="name" label="模板名称" rules={[zodRule(templateRenameBodySchema.shape.name)]}>
          <Input maxLength={30} autoFocus />
        </Form.Item>
      </FormDialog>
    </Space>
  );
}
