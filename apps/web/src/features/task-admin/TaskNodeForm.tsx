import type { TaskTreeNode } from '@huafang/contracts';
import { Button, Card, Form, Input, Switch, Typography } from 'antd';
import { toast } from '../../services/notices';
import { updateTask } from '../../services/task-admin';
import { useSubmit } from '../account/use-submit';
import { CoverUpload } from './CoverUpload';
import { KIND_LABELS } from './tree-model';
import { useRefreshTasks } from './use-refresh-tasks';

interface TaskNodeFormProps {
  node: TaskTreeNode;
}

interface TaskNodeValues {
  name: string;
  description: string;
  published: boolean;
  cover?: string | null;
}

/** A category's or a task's name, description and whether users see it on /tasks. */
export function TaskNodeForm({ node }: TaskNodeFormProps) {
  const { submitting, submit } = useSubmit();
  const refresh = useRefreshTasks();
  const what = KIND_LABELS[node.kind];
  const childCount = node.children?.length ?? 0;

  const onFinish = (values: TaskNodeValues) =>
    submit(async () => {
      await updateTask(node.id, {
        name: values.name.trim(),
        description: values.description.trim(),
        published: values.published,
        cover: values.cover ?? null,
      });
      toast('已保存', 'success');
      await refresh();
    });

  return (
    <Card title={`${what}：${node.name}`} className="hf-ta-card">
      <Typography.Paragraph type="secondary">
        {node.kind === 'category'
          ? `分类下有 ${childCount} 个任务。发布后，分类会出现在「任务」页的侧边菜单。`
          : `任务下有 ${childCount} 个模板。发布后，用户可以在「任务」页看到它和其中已发布的模板。`}
      </Typography.Paragraph>
      <Form<TaskNodeValues>
        name="task-node"
        layout="vertical"
        requiredMark={false}
        initialValues={{
          name: node.name,
          description: node.description,
          published: node.published,
          cover: node.cover,
        }}
        onFinish={onFinish}
        className="hf-ta-node-form"
      >
        <Form.Item
          name="name"
          label={`${what}名称`}
          rules={[{ required: true, whitespace: true, message: `请填写${what}名称` }]}
        >
          <Input maxLength={30} placeholder={`请输入${what}名称`} />
        </Form.Item>
        <Form.Item name="description" label="描述">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={200} showCount placeholder="一句话介绍" />
        </Form.Item>
        <Form.Item name="cover" label="封面" extra="显示在「任务」页的卡片上；不上传时用渐变色和名称代替">
          <CoverUpload />
        </Form.Item>
        <Form.Item name="published" label="发布" valuePropName="checked" extra="未发布时只有管理员能看到">
          <Switch checkedChildren="已发布" unCheckedChildren="未发布" aria-label={`发布${what}`} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={submitting}>
          保存
        </Button>
      </Form>
    </Card>
  );
}
