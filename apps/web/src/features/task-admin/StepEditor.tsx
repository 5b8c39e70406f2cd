import { Card } from 'antd';
import { FormConfigDesigner } from './FormConfigDesigner';
import { ParameterDefaults } from './ParameterDefaults';
import { PromptGroupEditor } from './PromptGroupEditor';
import { StepPreview } from './StepPreview';
import { StepSettings } from './StepSettings';
import type { StepDraft } from './template-draft';

interface StepEditorProps {
  step: StepDraft;
  index: number;
  onChange: (patch: Partial<StepDraft>) => void;
}

/** Everything of one step: settings, prompt groups, parameter defaults, and the form designer beside its preview. */
export function StepEditor({ step, index, onChange }: StepEditorProps) {
  return (
    <div className="hf-ta-step">
      <Card size="small" title="步骤设置">
        <StepSettings step={step} index={index} onChange={onChange} />
      </Card>
      <Card size="small" title="提示词">
        <div className="hf-ta-prompts">
          <PromptGroupEditor
            side="positive"
            items={step.promptGroup}
            onChange={(promptGroup) => onChange({ promptGroup })}
          />
          <PromptGroupEditor
            side="negative"
            items={step.negativePromptGroup}
            onChange={(negativePromptGroup) => onChange({ negativePromptGroup })}
          />
        </div>
      </Card>
      <Card size="small" title="参数默认值">
        <ParameterDefaults parameters={step.parameters} onChange={(parameters) => onChange({ parameters })} />
      </Card>
      <Card size="small" title="表单设计">
        <div className="hf-ta-design">
          <FormConfigDesigner
            items={step.formConfig}
            onChange={(formConfig) => onChange({ formConfig })}
            level="step"
          />
          <StepPreview formConfig={step.formConfig} parameters={step.parameters} />
        </div>
      </Card>
    </div>
  );
}
