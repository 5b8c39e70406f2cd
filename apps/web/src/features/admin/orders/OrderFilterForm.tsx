import { DownloadOutlined } from '@ant-design/icons';
import {
  type AdminOrderFilter,
  adminOrderFilterSchema,
  ORDER_STATUS_LABELS,
  PAYMENT_CHANNEL_LABELS,
} from '@huafang/contracts';
import { Button, Checkbox, DatePicker, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { isAfterDisplayToday } from '../../../common/dayjs';
import { useIsPhone } from '../../../common/use-screen';
import { zodRule } from '../../account/zod-rule';
import { type OrderFilterValues, orderFilterOf } from './order-filter';

const { shape } = adminOrderFilterSchema;
const STATUS_OPTIONS = Object.entries(ORDER_STATUS_LABELS).map(([value, label]) => ({ value, label }));
const CHANNEL_OPTIONS = Object.entries(PAYMENT_CHANNEL_LABELS).map(([value, label]) => ({ value, label }));

interface OrderFilterFormProps {
  onSearch: (filter: AdminOrderFilter) => void;
  onExport: (filter: AdminOrderFilter) => void;
  exporting: boolean;
}

/** The filters of 订单管理; 导出 CSV exports what the form says now and shows the same orders in the table. */
export function OrderFilterForm({ onSearch, onExport, exporting }: OrderFilterFormProps) {
  const [form] = Form.useForm<OrderFilterValues>();
  // Phones show the everyday filters; 更多条件 opens the rest (hidden fields keep their values and rules).
  const isPhone = useIsPhone();
  const [more, setMore] = useState(false);
  const hideRare = isPhone && !more;

  async function exportCsv() {
    let values: OrderFilterValues;
    try {
      values = await form.validateFields();
    } catch {
      // The form shows which field is wrong.
      return;
    }
    const filter = orderFilterOf(values);
    onSearch(filter);
    onExport(filter);
  }

  function reset() {
    form.resetFields();
    onSearch({});
  }

  return (
    <Form<OrderFilterValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => onSearch(orderFilterOf(values))}
      className="hf-audit-filters"
      aria-label="筛选订单"
    >
      <div className="hf-audit-fields">
        <Form.Item name="status" label="状态">
          <Select allowClear placeholder="全部状态" options={STATUS_OPTIONS} />
        </Form.Item>
        <Form.Item name="channel" label="支付方式">
          <Select allowClear placeholder="全部方式" options={CHANNEL_OPTIONS} />
        </Form.Item>
        <Form.Item name="user" label="用户" rules={[zodRule(shape.user, { optional: true })]}>
          <Input maxLength={64} placeholder="用户编号或手机号" autoComplete="off" />
        </Form.Item>
        <Form.Item name="orderId" label="订单号" hidden={hideRare} rules={[zodRule(shape.orderId, { optional: true })]}>
          <Input maxLength={64} placeholder="本站订单号或渠道交易号" autoComplete="off" />
        </Form.Item>
        <Form.Item name="days" label="下单日期" hidden={hideRare}>
          <DatePicker.RangePicker
            allowEmpty={[true, true]}
            disabledDate={isAfterDisplayToday}
            className="hf-audit-days"
          />
        </Form.Item>
        <Form.Item name="review" label="核查" valuePropName="checked" hidden={hideRare}>
          <Checkbox>只看待核查</Checkbox>
        </Form.Item>
      </div>
      {isPhone && (
        <Button type="link" className="hf-audit-more" aria-expanded={more} onClick={() => setMore(!more)}>
          {more ? '收起条件' : '更多条件'}
        </Button>
      )}
      <div className="hf-audit-actions">
        <Button type="primary" htmlType="submit">
          查询
        </Button>
        <Button onClick={reset}>重置</Button>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
          导出 CSV
        </Button>
      </div>
    </Form>
  );
}
