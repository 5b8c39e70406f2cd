import type { FormConfigItem, Parameters } from '@huafang/contracts';
import { Empty, Form } from 'antd';
import { FormConfigField } from './FormConfigField';
import { imagesFirst } from './required-images';
import './parameter-form.css';

interface FormConfigFormProps {
  items: FormConfigItem[];
  values: Parameters;
  onChange: (values: Parameters) => void;
}

/**
 * The parameter form a form config describes (spec §3 form config item), controlled by `values`: /draw binds
 * it to curParameters, and the template designer can reuse it as its live preview.
 */
export function FormConfigForm({ items, values, onChange }: FormConfigFormProps) {
  const shown = imagesFirst(items.filter((item) => item.show));
  if (shown.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="这个步骤没有可调参数" />;

  const setValue = (name: string, value: unknown) => onChange({ ...values, [name]: value });
  return (
    <Form layout="vertical" component="div" className="hf-config-form" size="middle">
      {shown.map((item) => (
        <FormConfigField key={item.name} item={item} values={values} setValue={setValue} />
      ))}
    </Form>
  );
}
