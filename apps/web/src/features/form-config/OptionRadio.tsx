import type { FormConfigItem } from '@huafang/contracts';
import { Radio } from 'antd';
import { useFieldOptions } from './use-field-options';

interface OptionRadioProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (value: string | number) => void;
}

export function OptionRadio({ item, value, onChange }: OptionRadioProps) {
  const { options } = useFieldOptions(item);
  return (
    <Radio.Group
      value={value}
      onChange={(event) => onChange(event.target.value)}
      options={options.map((option) => ({ label: option.label, value: option.value }))}
      optionType="button"
      size="small"
      disabled={item.disabled}
      aria-label={item.text}
    />
  );
}
