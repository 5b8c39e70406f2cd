import { type FormConfigItem, formFieldTypeSchema } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Drawer, Form, Input, Select, Space, Switch } from 'antd';
import { useId, useState } from 'react';
import { useDrawerSize } from '../../common/use-screen';
import { modelQueries } from '../../services/model';
import { CONTROLNET_MODULE } from '../form-config/form-values';
import { ChoiceSettings } from './ChoiceSettings';
import { FormConfigDesigner } from './FormConfigDesigner';
import {
  CHOICE_TYPES,
  type FieldFormValues,
  fieldFormValues,
  fieldFromForm,
  NUMERIC_TYPES,
  TEXT_TYPES,
} from './field-form';
import {
  childLevel,
  type DesignerLevel,
  FIELD_TYPE_LABELS,
  nameSuggestions,
  PARAMETER_LABELS,
  presetField,
} from './field-presets';
import { RangeSettings } from './RangeSettings';

interface FieldDrawerProps {
  item: FormConfigItem;
  isNew: boolean;
  level: DesignerLevel;
  /** Names of the other fields in the same list: a name may appear once per list. */
  takenNames: string[];
  /** The fields of the ControlNet unit this field belongs to, to pick a module's fromConfig from. */
  unitFields?: FormConfigItem[];
  onSave: (item: FormConfigItem) => void;
  onClose: () => void;
}

const TYPE_OPTIONS = formFieldTypeSchema.options.map((type) => ({
  value: type,
  label: `${FIELD_TYPE_LABELS[type]}（${type}）`,
}));
/** The unit fields every module shows anyway, so they are not offered for fromConfig. */
const CORE_UNIT_FIELDS = new Set([CONTROLNET_MODULE, 'controlnetModel', 'inputImageFileId']);

/** Edits one form config field; a collapse edits its children in a nested designer. */
export function FieldDrawer({ item, isNew, level, takenNames, unitFields, onSave, onClose }: FieldDrawerProps) {
  const formId = useId();
  const drawerSize = useDrawerSize(560);
  const [form] = Form.useForm<FieldFormValues>();
  const [children, setChildren] = useState(item.children ?? []);
  const models = useQuery(modelQueries.menu('all'));
  const type = Form.useWatch('type', form) ?? item.type;
  const name = Form.useWatch('name', form) ?? item.name;
  const moduleFields =
    level === 'controlNets' && name === CONTROLNET_MODULE
      ? (unitFields ?? [])
          .filter((field) => !CORE_UNIT_FIELDS.has(field.name))
          .map((field) => ({ value: field.name, label: field.text }))
      : undefined;

  /** Picking a known parameter for a new field fills in its usual type, title and range. */
  function onPickName(picked: string) {
    const preset = isNew ? presetField(picked) : undefined;
    if (!preset) return;
    form.setFieldsValue(fieldFormValues(preset));
    setChildren(preset.children ?? []);
  }

  return (
    <Drawer
      open
      title={isNew ? '添加表单项' : `编辑表单项「${item.text}」`}
      size={drawerSize}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Space className="hf-ta-drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" htmlType="submit" form={formId}>
            确定
          </Button>
        </Space>
      }
    >
      <Form<FieldFormValues>
        name={formId}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={fieldFormValues(item)}
        onFinish={(values) => onSave(fieldFromForm(values, children))}
      >
        <Form.Item name="type" label="类型">
          <Select options={TYPE_OPTIONS} aria-label="表单项类型" />
        </Form.Item>
        <Form.Item
          name="name"
          label="参数名"
          extra="生成时写入的参数，如 sampler、steps；同一列表中不能重复"
          rules={[
            { required: true, whitespace: true, message: '表单项缺少参数名' },
            { max: 64, message: '参数名过长' },
            {
              validator: async (_rule, value: string | undefined) => {
                if (value && takenNames.includes(value.trim())) throw new Error('参数名已存在');
              },
            },
          ]}
        >
          <AutoComplete
            options={nameSuggestions(level).map((value) => ({
              value,
              label: `${value}（${PARAMETER_LABELS[value] ?? value}）`,
            }))}
            onSelect={onPickName}
            placeholder="选择或输入参数名"
            aria-label="参数名"
          />
        </Form.Item>
        <Form.Item
          name="text"
          label="标题"
          rules={[
            { required: true, whitespace: true, message: '表单项缺少标题' },
            { max: 32, message: '表单项标题过长' },
          ]}
        >
          <Input placeholder="用户看到的中文标题" maxLength={32} aria-label="标题" />
        </Form.Item>

        {CHOICE_TYPES.has(type) && <ChoiceSettings moduleFields={moduleFields} />}
        {NUMERIC_TYPES.has(type) && <RangeSettings />}
        {TEXT_TYPES.has(type) && (
          <Form.Item name="value" label="默认值">
            <Input aria-label="默认值" />
          </Form.Item>
        )}
        {name === 'modelId' && (
          <Form.Item name="modelTabList" label="模型分组标签" extra="用户在这些分组间切换挑选模型；不选则显示全部分组">
            <Select
              mode="multiple"
              allowClear
              loading={models.isPending}
              options={(models.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
              placeholder="全部分组"
              aria-label="模型分组标签"
            />
          </Form.Item>
        )}

        <Space size={24} wrap>
          <Form.Item name="show" label="显示" valuePropName="checked">
            <Switch aria-label="显示" />
          </Form.Item>
          <Form.Item name="disabled" label="禁用" valuePropName="checked">
            <Switch aria-label="禁用" />
          </Form.Item>
          <Form.Item name="checked" label={type === 'switch' ? '默认开启' : '选中'} valuePropName="checked">
            <Switch aria-label="选中" />
          </Form.Item>
        </Space>

        {type === 'collapse' && (
          <Form.Item label="子表单项">
            <FormConfigDesigner items={children} onChange={setChildren} level={childLevel({ name })} />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
