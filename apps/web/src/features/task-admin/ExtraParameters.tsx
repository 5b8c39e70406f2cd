import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Parameters } from '@huafang/contracts';
import { AutoComplete, Button, Form, Input, Space, Typography } from 'antd';
import { useId } from 'react';
import { PARAMETER_LABELS } from './field-presets';
import { extraParameterNames, formatLooseValue, parseLooseValue, setParameter } from './parameters';

interface ExtraParametersProps {
  parameters: Parameters;
  onChange: (parameters: Parameters) => void;
}

interface NewParameterValues {
  name: string;
  value: string;
}

const NAME_OPTIONS = Object.entries(PARAMETER_LABELS).map(([name, label]) => ({
  value: name,
  label: `${name}（${label}）`,
}));

/** Parameters without their own input, as name and value; values are read as JSON when they parse. */
export function ExtraParameters({ parameters, onChange }: ExtraParametersProps) {
  const [form] = Form.useForm<NewParameterValues>();
  const formName = useId();
  const names = extraParameterNames(parameters);

  function onAdd(values: NewParameterValues) {
    onChange(setParameter(parameters, values.name.trim(), parseLooseValue(values.value)));
    form.resetFields();
  }

  return (
    <div className="hf-ta-extra-params">
      <Typography.Text type="secondary">
        其他参数（数字、true/false 与 JSON 按类型保存，其余按文本保存）
      </Typography.Text>
      {names.map((name) => (
        <Space.Compact key={name} block>
          <Input value={name} readOnly className="hf-ta-param-name" aria-label="参数名" />
          <Input
            key={formatLooseValue(parameters[name])}
            defaultValue={formatLooseValue(parameters[name])}
            onBlur={(event) => onChange(setParameter(parameters, name, parseLooseValue(event.target.value)))}
            onPressEnter={(event) => event.currentTarget.blur()}
            aria-label={`${name} 的值`}
          />
          <Button
            icon={<DeleteOutlined />}
            onClick={() => onChange(setParameter(parameters, name, undefined))}
            aria-label={`删除参数 ${name}`}
          />
        </Space.Compact>
      ))}
      <Form<NewParameterValues>
        form={form}
        name={formName}
        layout="inline"
        onFinish={onAdd}
        className="hf-ta-word-form"
      >
        <Form.Item
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请填写参数名' },
            {
              validator: async (_rule, value: string | undefined) => {
                if (value && Object.hasOwn(parameters, value.trim())) throw new Error('参数已存在');
              },
            },
          ]}
        >
          <AutoComplete
            options={NAME_OPTIONS}
            placeholder="参数名"
            className="hf-ta-param-name"
            aria-label="新参数名"
          />
        </Form.Item>
        <Form.Item name="value" rules={[{ required: true, message: '请填写参数值' }]}>
          <Input placeholder="值" aria-label="新参数值" />
        </Form.Item>
        <Button htmlType="submit" icon={<PlusOutlined />}>
          添加参数
        </Button>
      </Form>
    </div>
  );
}
