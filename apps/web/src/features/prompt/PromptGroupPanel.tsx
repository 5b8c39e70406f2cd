import { BookOutlined, CheckOutlined, ClearOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import type { PromptVariant } from '../../services/prompt';
import { useDraw } from '../../stores/draw';
import { PromptHistoryDrawer } from '../history/PromptHistoryDrawer';
import { PromptEnglishList } from '../translate/PromptEnglishList';
import { CustomWordInput } from './CustomWordInput';
import { PromptChip } from './PromptChip';
import { PromptLibraryDrawer } from './PromptLibraryDrawer';
import { useCleanCustomWords } from './use-clean-custom-words';
import './prompt-editor.css';

const TITLES: Record<PromptVariant, string> = { positive: '正向提示词', negative: '反向提示词' };
const EMPTY_HINTS: Record<PromptVariant, string> = {
  positive: '还没有提示词，点「词库」挑几个描述画面的词，或在下方输入自己的词',
  negative: '还没有反向提示词，点「词库」挑几个不想出现的内容，或在下方输入',
};

/**
 * 正向 / 反向提示词: the group's chips, an input for words of one's own, 词库, 编辑 (close buttons) and 清空自定义. 历史 sits on the
 * positive editor only: an entry holds both groups and imports them together.
 */
export function PromptGroupPanel({ variant }: { variant: PromptVariant }) {
  const group = useDraw((state) => (variant === 'negative' ? state.curNegativePromptGroup : state.curPromptGroup));
  const removePrompt = useDraw((state) => state.removePrompt);
  const replacePromptGroup = useDraw((state) => state.replacePromptGroup);
  const cleanCustomWords = useCleanCustomWords(variant);
  const setPromptEditing = useDraw((state) => state.setPromptEditing);
  const editing = group.some((item) => item.showClose);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const customCount = group.filter((item) => item.custom === '1').length;

  return (
    <section className="hf-panel hf-prompt-panel" aria-label={TITLES[variant]}>
      <div className="hf-prompt-head">
        <span className="hf-prompt-title">
          {TITLES[variant]}
          <span className="hf-prompt-count">{group.length}</span>
        </span>
        <Space size={8}>
          <Button size="small" icon={<BookOutlined />} onClick={() => setLibraryOpen(true)}>
            词库
          </Button>
          {variant === 'positive' && (
            <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistoryOpen(true)}>
              历史
            </Button>
          )}
          <Button
            size="small"
            icon={editing ? <CheckOutlined /> : <EditOutlined />}
            disabled={group.length === 0}
            onClick={() => setPromptEditing(variant, !editing)}
          >
            {editing ? '完成' : '编辑'}
          </Button>
          <ConfirmAction
            title={`清空 ${customCount} 个自定义词？`}
            description="只移除自己输入的词，从词库选的词保留"
            okText="清空"
            danger={false}
            disabled={customCount === 0}
            onConfirm={cleanCustomWords}
          >
            <Button size="small" icon={<ClearOutlined />} disabled={customCount === 0}>
              清空自定义
            </Button>
          </ConfirmAction>
        </Space>
      </div>
      <div className="hf-prompt-chips">
        {group.length === 0 ? (
          <span className="hf-prompt-empty">{EMPTY_HINTS[variant]}</span>
        ) : (
          group.map((item) => <PromptChip key={item.id} item={item} onRemove={(id) => removePrompt(variant, id)} />)
        )}
      </div>
      <PromptEnglishList label={TITLES[variant]} group={group} onChange={(next) => replacePromptGroup(variant, next)} />
      <CustomWordInput variant={variant} />
      <PromptLibraryDrawer variant={variant} open={libraryOpen} onClose={() => setLibraryOpen(false)} />
      {variant === 'positive' && <PromptHistoryDrawer open={historyOpen} onClose={() => setHistoryOpen(false)} />}
    </section>
  );
}
