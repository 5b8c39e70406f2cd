import type { TaskTreeNode } from '@huafang/contracts';
import { Empty, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { KIND_LABELS, moveTargetsOf } from './tree-model';

interface MoveDialogProps {
  tree: TaskTreeNode[];
  node: TaskTreeNode;
  onSubmit: (targetId: string) => Promise<void>;
  onClose: () => void;
}

interface MoveValues {
  targetId: string;
}

/** 移动: a task to another category, a template to another task. */
export function MoveDialog({ tree, node, onSubmit, onClose }: MoveDialogProps) {
  const [form] = Form.useForm<MoveValues>();
  const [submitting, setSubmitting] = useState(false);
  const targets = moveTargetsOf(tree, node);
  const targetKind = node.kind === 'template' ? '任务' : '分类';

  async function onFinish({ targetId }: MoveValues) {
    setSubmitting(true);
    try {
      await onSubmit(targetId);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open
      title={`移动${KIND_LABELS[node.kind]}「${node.name}」`}
      okText="移动"
      cancelText="取消"
      okButtonProps={{ disabled: targets.length === 0 }}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {targets.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`没有其他${targetKind}可以移入`} />
      ) : (
        <Form<MoveValues> form={form} name="tree-node-move" layout="vertical" onFinish={onFinish}>
          <Form.Item
            name="targetId"
            label={`目标${targetKind}`}
            rules={[{ required: true, message: `请选择目标${targetKind}` }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={targets}
              placeholder={`请选择目标${targetKind}`}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
