import type { FormConfigItem } from '@huafang/contracts';
import { Form, Input, Radio } from 'antd';
import { fileIdOfUrl, fileUrl } from '../../services/files';
import { ImageUploadField } from '../form-config/ImageUploadField';
import type { TemplateBasics } from './template-draft';

interface TemplateBasicsFormProps {
  basics: TemplateBasics;
  onChange: (basics: Partial<TemplateBasics>) => void;
}

const COVER_FIELD: FormConfigItem = {
  type: 'image',
  name: 'cover',
  text: '封面',
  show: true,
  disabled: false,
  checked: false,
};

/** The template's name, cover, description and who may use it. */
export function TemplateBasicsForm({ basics, onChange }: TemplateBasicsFormProps) {
  const nameMissing = basics.name.trim() === '';
  return (
    <Form layout="vertical" component="div" className="hf-ta-basics">
      <Form.Item
        label="模板名称"
        required
        validateStatus={nameMissing ? 'error' : undefined}
        help={nameMissing ? '请填写模板名称' : undefined}
      >
        <Input
          value={basics.name}
          maxLength={30}
          onChange={(event) => onChange({ name: event.target.value })}
          aria-label="模板名称"
        />
      </Form.Item>
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
        <ImageUploadField
          item={COVER_FIELD}
          value={fileIdOfUrl(basics.cover)}
          onChange={(fileId) => onChange({ cover: fileId ? fileUrl(fileId) : null })}
        />
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
