import type { FormConfigItem } from '@huafang/contracts';
import { Input, InputNumber, Switch } from 'antd';
import { ImageUploadField } from './ImageUploadField';
import { ModelSelect } from './ModelSelect';
import { numberInputMode } from './number-input';
import { OptionRadio } from './OptionRadio';
import { OptionSelect } from './OptionSelect';
import { SeedInput } from './SeedInput';
import { SliderField } from './SliderField';

interface FieldControlProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (value: unknown) => void;
}

const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);
const asText = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The input of one non-collapse form config field, by its type. */
export function FieldControl({ item, value, onChange }: FieldControlProps) {
  switch (item.type) {
    case 'select':
      return item.name === 'modelId' ? (
        <ModelSelect item={item} value={value} onChange={onChange} />
      ) : (
        <OptionSelect item={item} value={value} onChange={onChange} />
      );
    case 'radio':
      return <OptionRadio item={item} value={value} onChange={onChange} />;
    case 'number':
      return item.name === 'seed' ? (
        <SeedInput item={item} value={asNumber(value)} onChange={onChange} />
      ) : (
        <InputNumber<number>
          value={asNumber(value)}
          onChange={(next) => onChange(next ?? undefined)}
          min={item.min}
          max={item.max}
          step={item.step}
          disabled={item.disabled}
          inputMode={numberInputMode(item)}
          aria-label={item.text}
          className="hf-full-width"
        />
      );
    case 'slider':
      return <SliderField item={item} value={asNumber(value)} onChange={onChange} />;
    case 'switch':
      return <Switch checked={value === true} onChange={onChange} disabled={item.disabled} aria-label={item.text} />;
    case 'input':
      return (
        <Input
          value={asText(value)}
          onChange={(event) => onChange(event.target.value)}
          disabled={item.disabled}
          placeholder={`请输入${item.text}`}
          aria-label={item.text}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          value={asText(value)}
          onChange={(event) => onChange(event.target.value)}
          disabled={item.disabled}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={`请输入${item.text}`}
          aria-label={item.text}
        />
      );
    case 'image':
      return <ImageUploadField item={item} value={value} onChange={onChange} />;
    case 'collapse':
      return null;
  }
}
