import { LoadingOutlined, PlusOutlined, TranslationOutlined } from '@ant-design/icons';
import { promptGroupSchema } from '@huafang/contracts';
import { Button, Input, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { toast } from '../../services/notices';
import type { PromptVariant } from '../../services/prompt';
import { useDraw } from '../../stores/draw';
import { hasChinese } from '../translate/chinese';
import { PolishButton } from '../translate/PolishButton';
import { type TranslationState, useWordTranslation } from '../translate/use-word-translation';
import { customPromptItem, holdsWord, newCustomWordId } from './custom-word';

const WORD_MAX = 200;
const PLACEHOLDERS: Record<PromptVariant, string> = {
  positive: '输入自定义提示词，回车添加；只读英文的模型会收到英文',
  negative: '输入不想出现的内容，回车添加；只读英文的模型会收到英文',
};

/**
 * A word of one's own for a prompt group (custom "1"). Chinese is translated on blur and, at the latest, on
 * Enter: the chip keeps the Chinese and sends the English; if translating fails, the word is sent as typed.
 */
export function CustomWordInput({ variant }: { variant: PromptVariant }) {
  const appendPrompt = useDraw((state) => state.appendPrompt);
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const adding = useRef(false);
  // 「AI 润色」's English for the description it wrote, used if that description is added unchanged.
  const polished = useRef<{ chinese: string; english: string } | null>(null);
  const { state, translate } = useWordTranslation();
  const word = text.trim();
  const chinese = hasChinese(word);
  const current = state.status !== 'idle' && state.source === word ? state : null;

  async function add() {
    if (!word || adding.current) return;
    adding.current = true;
    try {
      const ownEnglish = polished.current?.chinese === word ? polished.current.english : undefined;
      const outcome = chinese && !ownEnglish ? await translate(word) : null;
      const item = customPromptItem(newCustomWordId(), word, ownEnglish ?? (outcome?.ok ? outcome.english : undefined));
      // Read the group now, not at render: it may have changed while the word was being translated.
      const group =
        variant === 'negative' ? useDraw.getState().curNegativePromptGroup : useDraw.getState().curPromptGroup;
      if (holdsWord(group, item)) {
        toast('这个提示词已经添加过了', 'warning');
        return;
      }
      const check = promptGroupSchema.safeParse([...group, item]);
      if (!check.success) {
        toast(check.error.issues[0]?.message ?? '提示词过多', 'warning');
        return;
      }
      appendPrompt(variant, item);
      // Words typed while this one was being translated stay in the box.
      setText((now) => (now.trim() === word ? '' : now));
      setFailure(outcome && !outcome.ok ? `“${word}”翻译失败（${outcome.message}），已按原文添加` : null);
    } finally {
      adding.current = false;
    }
  }

  return (
    <div className="hf-custom-word">
      <Space.Compact className="hf-custom-word-row">
        <Input
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setFailure(null);
          }}
          onBlur={() => {
            if (chinese) void translate(word);
          }}
          onPressEnter={() => void add()}
          maxLength={WORD_MAX}
          placeholder={PLACEHOLDERS[variant]}
          aria-label={variant === 'negative' ? '自定义反向提示词' : '自定义提示词'}
          // A suffix that comes and goes would remount the input and drop the focus, so an empty one stays.
          suffix={
            current?.status === 'loading' ? (
              <LoadingOutlined aria-label="翻译中" className="hf-custom-word-spin" />
            ) : (
              <span />
            )
          }
        />
        <Button icon={<PlusOutlined />} onClick={() => void add()} disabled={!word}>
          添加
        </Button>
      </Space.Compact>
      {variant === 'positive' && (
        <PolishButton
          text={text}
          onPolished={(result) => {
            polished.current = result;
            setText(result.chinese);
            setFailure(null);
          }}
        />
      )}
      <div className="hf-custom-word-hint" aria-live="polite">
        <CustomWordHint state={current} failure={failure} />
      </div>
    </div>
  );
}

/** What became of the word: translating, its English, or why it stays as typed. */
function CustomWordHint({ state, failure }: { state: TranslationState | null; failure: string | null }) {
  if (failure) return <Typography.Text type="danger">{failure}</Typography.Text>;
  if (!state || state.status === 'idle') return null;
  if (state.status === 'loading') return <Typography.Text type="secondary">翻译中…</Typography.Text>;
  if (state.status === 'error') {
    return <Typography.Text type="danger">翻译失败（{state.message}），添加时将按原文发送</Typography.Text>;
  }
  return (
    <Typography.Text type="secondary" className="hf-custom-word-english">
      <TranslationOutlined /> {state.english}
    </Typography.Text>
  );
}
