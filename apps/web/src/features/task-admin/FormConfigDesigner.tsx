import { PlusOutlined } from '@ant-design/icons';
import { type FormConfigItem, formField } from '@huafang/contracts';
import { Button, Dropdown, Empty, Space } from 'antd';
import { useState } from 'react';
import { CONTROLNETS } from '../form-config/form-values';
import { ControlNetModulesHint } from './ControlNetModulesHint';
import { FieldDrawer } from './FieldDrawer';
import { FieldRow } from './FieldRow';
import {
  buildControlNetUnit,
  type DesignerLevel,
  hasField,
  nameSuggestions,
  PARAMETER_LABELS,
  presetField,
} from './field-presets';
import { moveItem, removeAt, replaceAt } from './list-ops';

interface FormConfigDesignerProps {
  items: FormConfigItem[];
  onChange: (items: FormConfigItem[]) => void;
  level: DesignerLevel;
}

/** The field being edited: its place in the list, or null for a field not added yet. */
interface Editing {
  index: number | null;
  item: FormConfigItem;
}

const BLANK_FIELD = formField({ type: 'input', name: '', text: '' });

/** The ordered field list of a step (or of a collapse): add, edit in a drawer, delete, move up and down. */
export function FormConfigDesigner({ items, onChange, level }: FormConfigDesignerProps) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const presets = nameSuggestions(level).filter((name) => name !== CONTROLNETS && !hasField(items, name));

  function onSave(item: FormConfigItem) {
    if (!editing) return;
    onChange(editing.index === null ? [...items, item] : replaceAt(items, editing.index, item));
    setEditing(null);
  }

  function addPreset(name: string) {
    const preset = presetField(name);
    if (preset) onChange([...items, preset]);
  }

  return (
    <div className="hf-ta-designer">
      {level === 'controlNets' && <ControlNetModulesHint unitFields={items} />}
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有表单项" />
      ) : (
        <ol className="hf-ta-field-list">
          {items.map((item, index) => (
            <FieldRow
              key={item.name || index}
              item={item}
              index={index}
              count={items.length}
              onEdit={() => setEditing({ index, item })}
              onMove={(offset) => onChange(moveItem(items, index, offset))}
              onDelete={() => onChange(removeAt(items, index))}
            />
          ))}
        </ol>
      )}
      <Space wrap>
        <Button icon={<PlusOutlined />} onClick={() => setEditing({ index: null, item: BLANK_FIELD })}>
          添加表单项
        </Button>
        <Dropdown
          trigger={['click']}
          disabled={presets.length === 0}
          menu={{
            items: presets.map((name) => ({ key: name, label: `${PARAMETER_LABELS[name] ?? name}（${name}）` })),
            onClick: ({ key }) => addPreset(key),
          }}
        >
          <Button>添加常用参数</Button>
        </Dropdown>
        {level === 'step' && (
          <Button
            onClick={() => onChange([...items, buildControlNetUnit()])}
            disabled={hasField(items, CONTROLNETS)}
            title={hasField(items, CONTROLNETS) ? '每个步骤只能有一个 ControlNet 单元' : undefined}
          >
            添加 ControlNet 单元
          </Button>
        )}
      </Space>
      {editing && (
        <FieldDrawer
          item={editing.item}
          isNew={editing.index === null}
          level={level}
          takenNames={items.filter((_, index) => index !== editing.index).map((item) => item.name)}
          unitFields={level === 'controlNets' ? items : undefined}
          onSave={onSave}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
