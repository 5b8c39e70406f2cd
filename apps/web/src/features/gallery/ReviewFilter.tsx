import { Segmented } from 'antd';

interface ReviewFilterProps<Value extends string> {
  /** The accessible name, e.g. 按状态筛选. */
  label: string;
  options: { label: string; value: Value }[];
  value: Value;
  onChange: (value: Value) => void;
}

/** The bar above a review table that narrows what it lists. */
export function ReviewFilter<Value extends string>({ label, options, value, onChange }: ReviewFilterProps<Value>) {
  return (
    <div className="hf-review-toolbar">
      <Segmented<Value> aria-label={label} options={options} value={value} onChange={onChange} />
    </div>
  );
}
