import type { FormConfigItem, Parameters } from '@huafang/contracts';
import { Collapse, Form } from 'antd';
import { LoraField } from '../draw/lora/LoraField';
import { ControlNetField } from './ControlNetField';
import { FieldControl } from './FieldControl';
import { CONTROLNETS } from './form-values';

interface FormConfigFieldProps {
  item: FormConfigItem;
  values: Parameters;
  setValue: (name: string, value: unknown) => void;
}

/** One field of a form config; a plain collapse (高级设置) groups top-level fields and starts closed. */
export function FormConfigField({ item, values, setValue }: FormConfigFieldProps) {
  if (item.type === 'collapse' && item.name === CONTROLNETS) {
    return <ControlNetField item={item} values={values} setValue={setValue} />;
  }
  if (item.name === 'loras') return <LoraField item={item} values={values} setValue={setValue} />;
  if (item.type === 'collapse') {
    return (
      <Collapse
        size="small"
        className="hf-config-collapse"
        items={[
          {
            key: item.name,
            label: item.text,
            children: (item.children ?? [])
              .filter((child) => child.show)
              .map((child) => <FormConfigField key={child.name} item={child} values={values} setValue={setValue} />),
          },
        ]}
      />
    );
  }
  return (
    <Form.Item label={item.text}>
      <FieldControl item={item} value={values[item.name]} onChange={(value) => setValue(item.name, value)} />
    </Form.Item>
  );
}
