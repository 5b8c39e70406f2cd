import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space } from 'antd';

interface OptionListEditorProps {
  /** For a ControlNet module field: the unit's fields an option may show (its fromConfig). */
  moduleFields?: { value: string; label: string }[];
}

/** The `option` list of the field drawer's form: label and value per row. */
export function OptionListEditor({ moduleFields }: OptionListEditorProps) {
  return (
    <Form.List name="option">
      {(rows, { add, remove }) => (
        <div className="hf-ta-option-list">
          {rows.map((row, position) => (
            <div key={row.key} className="hf-ta-option-row">
              <Space.Compact block>
                <Form.Item
                  name={[row.name, 'label']}
                  noStyle
                  rules={[{ required: true, whitespace: true, message: '请填写选项名称' }]}
                >
                  <Input placeholder="显示名称" aria-label={`选项 ${position + 1} 名称`} />
                </Form.Item>
                <Form.Item
                  name={[row.name, 'value']}
                  noStyle
                  rules={[{ required: true, whitespace: true, message: '请填写选项值' }]}
                >
                  <Input placeholder="值（纯数字按数字保存）" aria-label={`选项 ${position + 1} 值`} />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(row.name)}
                  aria-label={`删除选项 ${position + 1}`}
                />
              </Space.Compact>
              {moduleFields && (
                <Form.Item name={[row.name, 'fromConfig']} noStyle>
                  <Select
                    mode="multiple"
                    allowClear
                    maxTagCount="responsive"
                    placeholder="选中这个预处理器时显示的字段"
                    options={moduleFields}
                    aria-label={`选项 ${position + 1} 显示的字段`}
                  />
                </Form.Item>
              )}
            </div>
          ))}
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ label: '', value: '' })}>
            添加选项
          </Button>
        </div>
      )}
    </Form.List>
  );
}
