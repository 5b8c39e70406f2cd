import type { FormConfigItem } from '@huafang/contracts';
import { Form } from 'antd';
import { FieldControl } from './FieldControl';
import { CONTROLNET_MODULE, type ControlNetUnit, visibleControlNetFields } from './form-values';
import { useFieldOptions } from './use-field-options';

interface ControlNetUnitFieldsProps {
  fields: FormConfigItem[];
  unit: ControlNetUnit;
  onChange: (unit: ControlNetUnit) => void;
}

/** One ControlNet unit: the chosen 预处理器's fromConfig decides which tuning fields show. */
export function ControlNetUnitFields({ fields, unit, onChange }: ControlNetUnitFieldsProps) {
  const { options } = useFieldOptions(fields.find((field) => field.name === CONTROLNET_MODULE));
  const module = options.find((option) => option.value === unit[CONTROLNET_MODULE]);

  return (
    <>
      {visibleControlNetFields(fields, module).map((field) => (
        <Form.Item key={field.name} label={field.text}>
          <FieldControl
            item={field}
            value={unit[field.name]}
            onChange={(value) => onChange({ ...unit, [field.name]: value })}
          />
        </Form.Item>
      ))}
    </>
  );
}
