import { Form, InputNumber, Space } from 'antd';

/** Minimum, maximum, step and default of a number or slider field (any may be fractional: a decimal keypad). */
export function RangeSettings() {
  return (
    <>
      <Space size={12} className="hf-ta-range">
        <Form.Item name="min" label="最小值">
          <InputNumber<number> inputMode="decimal" aria-label="最小值" />
        </Form.Item>
        <Form.Item
          name="max"
          label="最大值"
          dependencies={['min']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_rule, max: number | null | undefined) => {
                const min: unknown = getFieldValue('min');
                if (typeof max === 'number' && typeof min === 'number' && min >= max) {
                  throw new Error('最小值必须小于最大值');
                }
              },
            }),
          ]}
        >
          <InputNumber<number> inputMode="decimal" aria-label="最大值" />
        </Form.Item>
        <Form.Item
          name="step"
          label="步长"
          rules={[
            {
              validator: async (_rule, step: number | null | undefined) => {
                if (typeof step === 'number' && step <= 0) throw new Error('步长必须大于 0');
              },
            },
          ]}
        >
          <InputNumber<number> inputMode="decimal" aria-label="步长" />
        </Form.Item>
      </Space>
      <Form.Item name="value" label="默认值">
        <InputNumber<number> inputMode="decimal" className="hf-full-width" aria-label="默认值" />
      </Form.Item>
    </>
  );
}
