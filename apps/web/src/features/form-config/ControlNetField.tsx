import type { FormConfigItem, Parameters } from '@huafang/contracts';
import { Collapse } from 'antd';
import { ControlNetUnitFields } from './ControlNetUnitFields';
import { CONTROLNETS, readControlNetUnits } from './form-values';

interface ControlNetFieldProps {
  item: FormConfigItem;
  values: Parameters;
  setValue: (name: string, value: unknown) => void;
}

/** The controlNets collapse: one panel per unit, open, since these templates hinge on the reference image. */
export function ControlNetField({ item, values, setValue }: ControlNetFieldProps) {
  const saved = readControlNetUnits(values);
  const units = saved.length > 0 ? saved : [{}];
  const fields = item.children ?? [];

  return (
    <Collapse
      size="small"
      className="hf-config-collapse"
      defaultActiveKey={units.map((_, index) => String(index))}
      items={units.map((unit, index) => ({
        key: String(index),
        label: units.length > 1 ? `${item.text} ${index + 1}` : item.text,
        children: (
          <ControlNetUnitFields
            fields={fields}
            unit={unit}
            onChange={(next) =>
              setValue(
                CONTROLNETS,
                units.map((current, position) => (position === index ? next : current)),
              )
            }
          />
        ),
      }))}
    />
  );
}
