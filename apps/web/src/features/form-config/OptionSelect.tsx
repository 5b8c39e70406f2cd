import type { FormConfigItem } from '@huafang/contracts';
import { Select } from 'antd';
import { useFieldOptions } from './use-field-options';

interface OptionSelectProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (value: string | number) => void;
}

export function OptionSelect({ item, value, onChange }: OptionSelectProps) {
  const { options, loading } = useFieldOptions(item);
  return (
    <Select<string | number>
      value={typeof value === 'string' || typeof value === 'number' ? value : undefined}
      onChange={onChange}
      options={options.map((option) => ({ label: option.label, value: option.value }))}
      loading={loading}
      disabled={item.disabled}
      placeholder={`请选择${item.text}`}
      showSearch={{ optionFilterProp: 'label' }}
      aria-label={item.text}
    />
  );
}
