import { useQuery } from '@tanstack/react-query';
import { Form, Radio, Select } from 'antd';
import { optionQueries } from '../../services/options';
import { ChoiceDefaultSelect } from './ChoiceDefaultSelect';
import { type FieldFormValues, type OptionRow, type OptionSourceKind, optionRows } from './field-form';
import { OPTION_SOURCES } from './field-presets';
import { OptionListEditor } from './OptionListEditor';

interface ChoiceSettingsProps {
  /** For a ControlNet module field: the unit's fields an option may show (its fromConfig). */
  moduleFields?: { value: string; label: string }[];
}

const SOURCE_OPTIONS = OPTION_SOURCES.map((option) => ({
  value: option.value,
  label: `${option.label}（${option.value}）`,
}));

/** Where a select or radio takes its options from (fixed list or an option source), and its default choice. */
export function ChoiceSettings({ moduleFields }: ChoiceSettingsProps) {
  const form = Form.useFormInstance<FieldFormValues>();
  // useWatch reads undefined on the first render; the form's store already holds the initial values then.
  const source: OptionSourceKind = Form.useWatch('source', form) ?? form.getFieldValue('source');
  const url: string | undefined = Form.useWatch('url', form) ?? form.getFieldValue('url');
  const rows: OptionRow[] = Form.useWatch('option', form) ?? form.getFieldValue('option') ?? [];
  const sourceOptions = useQuery(optionQueries.formOptions(url));

  /** Switching from an option source to fixed options starts from the source's options, fromConfig included. */
  function onSourceChange(next: OptionSourceKind) {
    if (next === 'option' && rows.length === 0 && sourceOptions.data) {
      form.setFieldValue('option', optionRows(sourceOptions.data));
    }
  }

  return (
    <>
      <Form.Item name="source" label="选项来源">
        <Radio.Group
          onChange={(event) => onSourceChange(event.target.value === 'option' ? 'option' : 'url')}
          optionType="button"
          options={[
            { value: 'option', label: '固定选项' },
            { value: 'url', label: '接口来源' },
          ]}
        />
      </Form.Item>
      {source === 'url' ? (
        <Form.Item name="url" label="接口" rules={[{ required: true, message: '请选择选项来源接口' }]}>
          <Select options={SOURCE_OPTIONS} placeholder="请选择接口" aria-label="选项来源接口" />
        </Form.Item>
      ) : (
        <Form.Item label="选项">
          <OptionListEditor moduleFields={moduleFields} />
        </Form.Item>
      )}
      <Form.Item name="value" label="默认值">
        <ChoiceDefaultSelect url={source === 'url' ? url : undefined} rows={rows} />
      </Form.Item>
    </>
  );
}
