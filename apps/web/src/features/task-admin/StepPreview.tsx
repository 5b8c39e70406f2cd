import type { FormConfigItem, Parameters } from '@huafang/contracts';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { FormConfigForm } from '../form-config/FormConfigForm';
import { initialParameters } from '../form-config/form-values';

interface StepPreviewProps {
  formConfig: FormConfigItem[];
  parameters: Parameters;
}

/**
 * The step's form as users will see it on /draw. Values tried out here stay in the preview; only the ones
 * changed are kept, so edited defaults still show through the rest.
 */
export function StepPreview({ formConfig, parameters }: StepPreviewProps) {
  const [tried, setTried] = useState<Parameters>({});
  const values = { ...initialParameters(formConfig, parameters), ...tried };

  function onChange(next: Parameters) {
    const changed = Object.entries(next).filter(([name, value]) => value !== values[name]);
    setTried((current) => ({ ...current, ...Object.fromEntries(changed) }));
  }

  return (
    <Card
      size="small"
      title="实时预览"
      className="hf-ta-preview"
      extra={
        <Button size="small" type="link" onClick={() => setTried({})} disabled={Object.keys(tried).length === 0}>
          重置
        </Button>
      }
    >
      <Typography.Paragraph type="secondary" className="hf-ta-preview-note">
        用户在创作页看到的参数表单，这里的改动不会保存
      </Typography.Paragraph>
      <FormConfigForm items={formConfig} values={values} onChange={onChange} />
    </Card>
  );
}
