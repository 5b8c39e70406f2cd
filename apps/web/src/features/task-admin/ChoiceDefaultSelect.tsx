import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { optionQueries } from '../../services/options';
import type { OptionRow } from './field-form';

interface ChoiceDefaultSelectProps {
  /** The option source, when the field reads its options from one. */
  url?: string;
  /** The field's own options, as the drawer's form holds them. */
  rows: OptionRow[];
  value?: string | number | null;
  onChange?: (value: string | undefined) => void;
}

/** The default choice of a select or radio field, among the options it will offer. */
export function ChoiceDefaultSelect({ url, rows, value, onChange }: ChoiceDefaultSelectProps) {
  const fetched = useQuery(optionQueries.formOptions(url));
  const options = url
    ? (fetched.data ?? []).map((option) => ({ value: String(option.value), label: option.label }))
    : rows
        .filter((row) => row.value?.trim())
        .map((row) => ({ value: row.value.trim(), label: row.label || row.value }));
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={value === null || value === undefined ? undefined : String(value)}
      onChange={(next) => onChange?.(next)}
      loading={Boolean(url) && fetched.isPending}
      placeholder="不指定"
      aria-label="默认值"
      options={options}
    />
  );
}
