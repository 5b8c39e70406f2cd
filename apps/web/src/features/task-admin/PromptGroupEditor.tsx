import { BookOutlined, ClearOutlined } from '@ant-design/icons';
import type { PromptGroupItem } from '@huafang/contracts';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { CustomWordForm } from './CustomWordForm';
import { localId } from './ids';
import { PromptChips } from './PromptChips';
import { PromptTagPicker } from './PromptTagPicker';
import {
  addItem,
  cleanAdminGroup,
  customItem,
  libraryItem,
  type PromptSide,
  removeItem,
  toggleItem,
} from './prompt-group-ops';

interface PromptGroupEditorProps {
  side: PromptSide;
  items: PromptGroupItem[];
  onChange: (items: PromptGroupItem[]) => void;
}

const SIDE_LABELS: Record<PromptSide, string> = { positive: '正向提示词组', negative: '反向提示词组' };

/** A step's fixed words: picked from the library (custom 0) or typed in (custom 1); 清理 keeps only custom 0. */
export function PromptGroupEditor({ side, items, onChange }: PromptGroupEditorProps) {
  const [picking, setPicking] = useState(false);
  const typedCount = items.length - cleanAdminGroup(items).length;

  return (
    <section className="hf-ta-prompt" aria-label={SIDE_LABELS[side]}>
      <div className="hf-ta-section-head">
        <Typography.Text strong>
          {SIDE_LABELS[side]}（{items.length}）
        </Typography.Text>
        <Space size={4}>
          <Button size="small" icon={<BookOutlined />} onClick={() => setPicking(true)}>
            词库
          </Button>
          <ConfirmAction
            title="清理自定义提示词？"
            description={`将移除 ${typedCount} 个手动输入的词，只保留词库中的词`}
            okText="清理"
            danger={false}
            onConfirm={() => onChange(cleanAdminGroup(items))}
            disabled={typedCount === 0}
          >
            <Button size="small" icon={<ClearOutlined />} disabled={typedCount === 0}>
              清理
            </Button>
          </ConfirmAction>
        </Space>
      </div>
      <PromptChips items={items} onRemove={(id) => onChange(removeItem(items, id))} />
      <CustomWordForm
        onAdd={(label, text) => onChange(addItem(items, customItem({ id: localId('p'), label, text }, side)))}
      />
      <PromptTagPicker
        open={picking}
        side={side}
        group={items}
        onToggle={(word) => onChange(toggleItem(items, libraryItem(word, side)))}
        onClose={() => setPicking(false)}
      />
    </section>
  );
}
