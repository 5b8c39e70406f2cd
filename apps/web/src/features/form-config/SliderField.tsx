import type { FormConfigItem } from '@huafang/contracts';
import { InputNumber, Slider } from 'antd';
import { numberInputMode } from './number-input';
import './parameter-form.css';

interface SliderFieldProps {
  item: FormConfigItem;
  value: number | undefined;
  onChange: (value: number) => void;
}

/** A slider with the exact number beside it, for those who know the value they want. */
export function SliderField({ item, value, onChange }: SliderFieldProps) {
  const range = { min: item.min ?? 0, max: item.max ?? 100, step: item.step ?? 1 };
  return (
    <div className="hf-slider-field">
      <Slider {...range} value={value} onChange={onChange} disabled={item.disabled} className="hf-grow" />
      <InputNumber<number>
        {...range}
        size="small"
        value={value}
        onChange={(next) => next !== null && onChange(next)}
        disabled={item.disabled}
        inputMode={numberInputMode(range)}
        aria-label={item.text}
        className="hf-slider-number"
      />
    </div>
  );
}
