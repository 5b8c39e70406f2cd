import type { Parameters } from '@huafang/contracts';
import { Form, InputNumber } from 'antd';
import { numberInputMode } from '../form-config/number-input';
import { ExtraParameters } from './ExtraParameters';
import { PARAMETER_LABELS } from './field-presets';
import { ModelGroupSelect } from './ModelGroupSelect';
import { OptionSourceSelect } from './OptionSourceSelect';
import { DEFAULT_FIELDS, type DefaultField, setParameter } from './parameters';

interface ParameterDefaultsProps {
  parameters: Parameters;
  onChange: (parameters: Parameters) => void;
}

const SAMPLERS_URL = '/api/options/samplers';

function DefaultInput({
  field,
  value,
  onChange,
}: {
  field: DefaultField;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const label = PARAMETER_LABELS[field.name];
  if (field.kind === 'model') {
    return <ModelGroupSelect value={typeof value === 'string' ? value : undefined} onChange={onChange} />;
  }
  if (field.kind === 'sampler') {
    return (
      <OptionSourceSelect
        url={SAMPLERS_URL}
        value={typeof value === 'string' ? value : undefined}
        onChange={onChange}
        ariaLabel={`默认${label}`}
      />
    );
  }
  return (
    <InputNumber<number>
      value={typeof value === 'number' ? value : null}
      onChange={onChange}
      min={field.min}
      max={field.max}
      step={field.step}
      inputMode={numberInputMode(field)}
      placeholder="不指定"
      aria-label={`默认${label}`}
      className="hf-full-width"
    />
  );
}

/** The step's parameter defaults: what a generation uses unless the user's form says otherwise. */
export function ParameterDefaults({ parameters, onChange }: ParameterDefaultsProps) {
  return (
    <>
      <Form layout="vertical" component="div" className="hf-ta-param-grid">
        {DEFAULT_FIELDS.map((field) => (
          <Form.Item key={field.name} label={`${PARAMETER_LABELS[field.name]}（${field.name}）`}>
            <DefaultInput
              field={field}
              value={parameters[field.name]}
              onChange={(value) => onChange(setParameter(parameters, field.name, value))}
            />
          </Form.Item>
        ))}
      </Form>
      <ExtraParameters parameters={parameters} onChange={onChange} />
    </>
  );
}
