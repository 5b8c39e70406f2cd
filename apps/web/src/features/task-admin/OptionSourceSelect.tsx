import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { optionQueries } from '../../services/options';

interface OptionSourceSelectProps {
  url: string;
  value?: string | number;
  onChange?: (value: string | number | undefined) => void;
  placeholder?: string;
  ariaLabel?: string;
}

/** A choice among the options an option source answers with (samplers, sizes, ControlNet modules…). */
export function OptionSourceSelect({
  url,
  value,
  onChange,
  placeholder = '不指定',
  ariaLabel,
}: OptionSourceSelectProps) {
  const options = useQuery(optionQueries.formOptions(url));
  return (
    <Select<string | number>
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={value}
      onChange={(next) => onChange?.(next)}
      loading={options.isPending}
      placeholder={placeholder}
      aria-label={ariaLabel}
      options={(options.data ?? []).map((option) => ({ value: option.value, label: option.label }))}
    />
  );
}
