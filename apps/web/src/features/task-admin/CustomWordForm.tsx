import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useId } from 'react';

interface CustomWordValues {
  label: string;
  text?: string;
}

interface CustomWordFormProps {
  onAdd: (label: string, text: string) => void;
}

/** A word of one's own: the Chinese label on the chip and the English text sent to the engine. Enter adds. */
export function CustomWordForm({ onAdd }: CustomWordFormProps) {
  const [form] = Form.useForm<CustomWordValues>();
  const formName = useId();

  function onFinish(values: CustomWordValues) {
    onAdd(values.label, values.text ?? '');
    form.resetFields();
  }

  return (
    <Form<CustomWordValues> form={form} name={formName} layout="inline" onFinish={onFinish} className="hf-ta-word-form">
      <Form.Item name="label" rules={[{ required: true, whitespace: true, message: '请填写中文标签' }]}>
        <Input placeholder="中文标签，如 赛博朋克" maxLength={20} aria-label="自定义提示词中文标签" />
      </Form.Item>
      <Form.Item name="text" rules={[{ pattern: /^[\x20-\x7e]*$/, message: '英文提示词只能包含英文字符' }]}>
        <Input placeholder="英文提示词，如 cyberpunk" maxLength={200} aria-label="自定义提示词英文" />
      </Form.Item>
      <Button htmlType="submit" icon={<PlusOutlined />}>
        添加
      </Button>
    </Form>
  );
}
