import {
  type AdminOrderFilter,
  adminOrderFilterSchema,
  ORDER_STATUS_LABELS,
  PAYMENT_CHANNEL_LABELS,
} from '@huafang/contracts';
import { Checkbox, DatePicker, Form, Input, Select } from 'antd';
import { isAfterDisplayToday } from '../../../common/dayjs';
import { zodRule } from '../../account/zod-rule';
import { ExportableFilterForm } from '../ExportableFilterForm';
import { type OrderFilterValues, orderFilterOf } from './order-filter';

const { shape } = adminOrderFilterSchema;
const STATUS_OPTIONS = Object.entries(ORDER_STATUS_LABELS).map(([value, label]) => ({ value, label }));
const CHANNEL_OPTIONS = Object.entries(PAYMENT_CHANNEL_LABELS).map(([value, label]) => ({ value, label }));

interface OrderFilterFormProps {
  onSearch: (filter: AdminOrderFilter) => void;
  onExport: (filter: AdminOrderFilter) => void;
  exporting: boolean;
}

/** The filters of 订单管理. */
export function OrderFilterForm(props: OrderFilterFormProps) {
  return (
    <ExportableFilterForm<OrderFilterValues, AdminOrderFilter> label="筛选订单" filterOf={orderFilterOf} {...props}>
      {(hideRare) => (
        <>
          <Form.Item name="status" label="状态">
            <Select allowClear placeholder="全部状态" options={STATUS_OPTIONS} />
          </Form.Item>
          <Form.Item name="channel" label="支付方式">
            <Select allowClear placeholder="全部方式" options={CHANNEL_OPTIONS} />
          </Form.Item>
          <Form.Item name="user" label="用户" rules={[zodRule(shape.user, { optional: true })]}>
            <Input maxLength={64} placeholder="用户编号或手机号" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="orderId"
            label="订单号"
            hidden={hideRare}
            rules={[zodRule(shape.orderId, { optional: true })]}
          >
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
        </>
      )}
    </ExportableFilterForm>
  );
}
