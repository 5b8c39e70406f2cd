import type { TaskStep } from '@huafang/contracts';
import { Form, Input, Radio } from 'antd';
import { CoverFromWorks } from './CoverFromWorks';
import { CoverUpload } from './CoverUpload';
import { DraftNameField } from './DraftNameField';
import type { TemplateBasics } from './template-draft';

interface TemplateBasicsFormProps {
  basics: TemplateBasics;
  onChange: (basics: Partial<TemplateBasics>) => void;
  /** A saved official template: its cover can also be picked from works made with it (admins). */
  sample?: { templateId: string; firstStep: TaskStep | undefined };
}

/** The template's name, cover, description and who may use it. */
export function TemplateBasicsForm({ basics, onChange, sample }: TemplateBasicsFormProps) {
  return (
    <Form layout="vertical" component="div" className="hf-ta-basics">
      <DraftNameField label="模板名称" value={basics.name} maxLength={30} onChange={(name) => onChange({ name })} />
      <Form.Item label="可见范围">
        <Radio.Group
          optionType="button"
          value={basics.visibility}
          onChange={(event) => onChange({ visibility: event.target.value === 'private' ? 'private' : 'public' })}
          options={[
            { value: 'public', label: '公开' },
            { value: 'private', label: '仅管理员' },
          ]}
        />
      </Form.Item>
      <Form.Item label="封面">
        <div className="hf-ta-cover-field">
          <CoverUpload value={basics.cover} onChange={(cover) => onChange({ cover })} />
          {sample && (
            <CoverFromWorks
              templateId={sample.templateId}
              firstStep={sample.firstStep}
              onChange={(cover) => onChange({ cover })}
            />
          )}
        </div>
      </Form.Item>
      <Form.Item label="描述" className="hf-ta-basics-wide">
        <Input.TextArea
          value={basics.description}
          maxLength={200}
          showCount
          autoSize={{ minRows: 1, maxRows: 4 }}
          onChange={(event) => onChange({ description: event.target.value })}
          placeholder="一句话介绍这个模板能做什么"
          aria-label="模板描述"
        />
      </Form.Item>
    </Form>
  );
}
