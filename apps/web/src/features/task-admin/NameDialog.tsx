import { Form, Input, Modal } from 'antd';
import { useState } from 'react';

interface NameDialogProps {
  title: string;
  /** 分类, 任务 or 模板: names the field and its messages. */
  what: string;
  initialName?: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}

interface NameValues {
  name: string;
}

/** 新建 and 重命名: one name, Enter submits. */
export function NameDialog({ title, what, initialName = '', onSubmit, onClose }: NameDialogProps) {
  const [form] = Form.useForm<NameValues>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish({ name }: NameValues) {
    setSubmitting(true);
    try {
      await onSubmit(name.trim());
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open
      title={title}
      okText="确定"
      cancelText="取消"
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<NameValues>
        form={form}
        name="tree-node-name"
        layout="vertical"
        initialValues={{ name: initialName }}
        onFinish={onFinish}
      >
        <Form.Item
          name="name"
          label={`${what}名称`}
          rules={[
            { required: true, whitespace: true, message: `请填写${what}名称` },
            { max: 30, message: `${what}名称不能超过 30 个字` },
          ]}
        >
          <Input autoFocus placeholder={`请输入${what}名称`} maxLength={30} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
