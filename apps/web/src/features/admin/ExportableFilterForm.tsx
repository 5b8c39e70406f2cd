import { DownloadOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import { type ReactNode, useState } from 'react';
import { useIsPhone } from '../../common/use-screen';

interface ExportableFilterFormProps<Values, Filter> {
  /** The form's accessible name, e.g. 筛选订单. */
  label: string;
  /** The query for the form's values: blank fields are left out. */
  filterOf: (values: Values) => Filter;
  onSearch: (filter: Filter) => void;
  onExport: (filter: Filter) => void;
  exporting: boolean;
  /** The fields; `hideRare` is true on a phone until 更多条件 is opened. */
  children: (hideRare: boolean) => ReactNode;
}

/**
 * An admin list's filters, each with a visible label. Enter in any text field searches; 导出 CSV exports what the
 * form says now (and shows the same rows in the table), so the file always matches the page.
 */
export function ExportableFilterForm<Values extends object, Filter>({
  label,
  filterOf,
  onSearch,
  onExport,
  exporting,
  children,
}: ExportableFilterFormProps<Values, Filter>) {
  const [form] = Form.useForm<Values>();
  // Phones show the everyday filters; 更多条件 opens the rest (hidden fields keep their values and rules).
  const isPhone = useIsPhone();
  const [more, setMore] = useState(false);

  async function exportCsv() {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      // The form shows which field is wrong.
      return;
    }
    const filter = filterOf(values);
    onSearch(filter);
    onExport(filter);
  }

  function reset() {
    form.resetFields();
    onSearch(filterOf(form.getFieldsValue()));
  }

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => onSearch(filterOf(values))}
      className="hf-audit-filters"
      aria-label={label}
    >
      <div className="hf-audit-fields">{children(isPhone && !more)}</div>
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
