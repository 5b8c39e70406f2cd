import { DownloadOutlined } from '@ant-design/icons';
import { type AuditFilter, auditFilterSchema } from '@huafang/contracts';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { isAfterDisplayToday } from '../../../common/dayjs';
import { useIsPhone } from '../../../common/use-screen';
import { zodRule } from '../../account/zod-rule';
import { type AuditFilterValues, auditFilterOf, KIND_OPTIONS } from './audit-filter';

const { shape } = auditFilterSchema;

interface AuditFilterFormProps {
  onSearch: (filter: AuditFilter) => void;
  onExport: (filter: AuditFilter) => void;
  exporting: boolean;
}

/**
 * The filters of 审计日志, each with a visible label. Enter in any text field searches; 导出 CSV exports what the
 * form says now (and shows the same entries in the table), so the file always matches the page.
 */
export function AuditFilterForm({ onSearch, onExport, exporting }: AuditFilterFormProps) {
  const [form] = Form.useForm<AuditFilterValues>();
  // Phones show the everyday filters; 更多条件 opens the rest (hidden fields keep their values and rules).
  const isPhone = useIsPhone();
  const [more, setMore] = useState(false);
  const hideRare = isPhone && !more;

  async function exportCsv() {
    let values: AuditFilterValues;
    try {
      values = await form.validateFields();
    } catch {
      // The form shows which field is wrong.
      return;
    }
    const filter = auditFilterOf(values);
    onSearch(filter);
    onExport(filter);
  }

  function reset() {
    form.resetFields();
    onSearch(auditFilterOf({}));
  }

  return (
    <Form<AuditFilterValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => onSearch(auditFilterOf(values))}
      className="hf-audit-filters"
      aria-label="筛选审计日志"
    >
      <div className="hf-audit-fields">
        <Form.Item name="days" label="日期范围">
          <DatePicker.RangePicker
            allowEmpty={[true, true]}
            disabledDate={isAfterDisplayToday}
            className="hf-audit-days"
          />
        </Form.Item>
        <Form.Item name="kind" label="操作类型">
          <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部操作" options={KIND_OPTIONS} />
        </Form.Item>
        <Form.Item name="mobile" label="手机号" rules={[zodRule(shape.mobile, { optional: true })]}>
          <Input inputMode="numeric" maxLength={11} placeholder="完整的 11 位手机号" autoComplete="off" />
        </Form.Item>
        <Form.Item name="userId" label="用户编号" hidden={hideRare} rules={[zodRule(shape.userId, { optional: true })]}>
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
