import { type AuditFilter, auditFilterSchema } from '@huafang/contracts';
import { DatePicker, Form, Input, Select } from 'antd';
import { isAfterDisplayToday } from '../../../common/dayjs';
import { zodRule } from '../../account/zod-rule';
import { ExportableFilterForm } from '../ExportableFilterForm';
import { type AuditFilterValues, auditFilterOf, KIND_OPTIONS } from './audit-filter';

const { shape } = auditFilterSchema;

interface AuditFilterFormProps {
  onSearch: (filter: AuditFilter) => void;
  onExport: (filter: AuditFilter) => void;
  exporting: boolean;
}

/** The filters of 审计日志. */
export function AuditFilterForm(props: AuditFilterFormProps) {
  return (
    <ExportableFilterForm<AuditFilterValues, AuditFilter> label="筛选审计日志" filterOf={auditFilterOf} {...props}>
      {(hideRare) => (
        <>
          <Form.Item name="days" label="日期范围">
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              disabledDate={isAfterDisplayToday}
              className="hf-audit-days"
            />
          </Form.Item>
          <Form.Item name="kind" label="操作类型">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部操作"
              options={KIND_OPTIONS}
            />
          </Form.Item>
          <Form.Item name="mobile" label="手机号" rules={[zodRule(shape.mobile, { optional: true })]}>
            <Input inputMode="numeric" maxLength={11} placeholder="完整的 11 位手机号" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="userId"
            label="用户编号"
            hidden={hideRare}
            rules={[zodRule(shape.userId, { optional: true })]}
          >
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item name="ip" label="IP 地址" hidden={hideRare} rules={[zodRule(shape.ip, { optional: true })]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="apiKeyId"
            label="API 密钥编号"
            hidden={hideRare}
            rules={[zodRule(shape.apiKeyId, { optional: true })]}
          >
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </>
      )}
    </ExportableFilterForm>
  );
}
