import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { FormConfigItem } from '@huafang/contracts';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { ConfirmAction } from '../../common/ConfirmAction';
import { FIELD_TYPE_LABELS, OPTION_SOURCES } from './field-presets';

interface FieldRowProps {
  item: FormConfigItem;
  index: number;
  count: number;
  onEdit: () => void;
  onMove: (offset: -1 | 1) => void;
  onDelete: () => void;
}

function sourceText(item: FormConfigItem): string | null {
  if (item.url) return `来源：${OPTION_SOURCES.find((source) => source.value === item.url)?.label ?? item.url}`;
  if (item.option) return `${item.option.length} 个选项`;
  if (item.children) return `${item.children.length} 个子项`;
  return null;
}

/** One field of the designer's list: what it is, and 上移 / 下移 / 编辑 / 删除. */
export function FieldRow({ item, index, count, onEdit, onMove, onDelete }: FieldRowProps) {
  const source = sourceText(item);
  return (
    <li className="hf-ta-field-row" data-name={item.name}>
      <div className="hf-ta-field-main">
        <Space size={6} wrap>
          <Tag color="purple">{FIELD_TYPE_LABELS[item.type]}</Tag>
          <Typography.Text strong>{item.text}</Typography.Text>
          <Typography.Text code>{item.name}</Typography.Text>
          {!item.show && <Tag>隐藏</Tag>}
          {item.disabled && <Tag>禁用</Tag>}
          {source && <Typography.Text type="secondary">{source}</Typography.Text>}
        </Space>
      </div>
      <Space size={2}>
        <Tooltip title="上移">
          <Button
            type="text"
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={`上移 ${item.text}`}
          />
        </Tooltip>
        <Tooltip title="下移">
          <Button
            type="text"
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={`下移 ${item.text}`}
          />
        </Tooltip>
        <Tooltip title="编辑">
          <Button type="text" size="small" icon={<EditOutlined />} onClick={onEdit} aria-label={`编辑 ${item.text}`} />
        </Tooltip>
        <ConfirmAction title={`删除表单项「${item.text}」？`} onConfirm={onDelete}>
          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除 ${item.text}`} />
        </ConfirmAction>
      </Space>
    </li>
  );
}
