import { GENERATE_MODE_LABELS, type GenerateMode, generateModeSchema } from '@huafang/contracts';
import { Form, Select, Switch } from 'antd';
import { DraftNameField } from './DraftNameField';
import type { StepDraft } from './template-draft';

interface StepSettingsProps {
  step: StepDraft;
  index: number;
  onChange: (patch: Partial<StepDraft>) => void;
}

const MODE_OPTIONS = generateModeSchema.options.map((mode) => ({ value: mode, label: GENERATE_MODE_LABELS[mode] }));

/** A step's name, 生成方式 and whether it starts from the image picked in the previous step. */
export function StepSettings({ step, index, onChange }: StepSettingsProps) {
  return (
    <Form layout="vertical" component="div" className="hf-ta-step-settings">
      <DraftNameField
        label="步骤名称"
        value={step.name}
        maxLength={20}
        placeholder="如 生成、高清放大"
        onChange={(name) => onChange({ name })}
      />
      <Form.Item label="生成方式">
        <Select<GenerateMode>
          value={step.generateMode}
          options={MODE_OPTIONS}
          onChange={(generateMode) => onChange({ generateMode })}
          aria-label="生成方式"
        />
      </Form.Item>
      <Form.Item
        label="使用上一步的图片"
        extra={index === 0 ? '第一步没有上一步的图片' : '用户在上一步结果中选中的图片作为输入'}
      >
        <Switch
          checked={step.useParentImage}
          disabled={index === 0 && !step.useParentImage}
          onChange={(useParentImage) => onChange({ useParentImage })}
          aria-label="使用上一步的图片"
        />
      </Form.Item>
    </Form>
  );
}
