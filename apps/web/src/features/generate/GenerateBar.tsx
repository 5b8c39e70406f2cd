import { PictureOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { GenerateBody } from '@huafang/contracts';
import { Button, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { PredictSummary } from './PredictSummary';
import type { Generation } from './use-generation';
import { usePredict } from './use-predict';
import './generate.css';

interface GenerateBarProps {
  /** The run 生成 submits; null when there is nothing to submit yet. */
  body: GenerateBody | null;
  /** Why 生成 cannot run now, shown instead of the estimate. */
  blockedReason: string | null;
  generation: Pick<Generation, 'active' | 'submitting' | 'submit'>;
  /** Narrow screens: reopens the result sheet once there is a run to look at. */
  onShowResults?: () => void;
}

/** The sticky footer: 预计消耗 · 剩余 · 排队 · 约 N 秒 and the big 生成 button (Ctrl+Enter). */
export function GenerateBar({ body, blockedReason, generation, onShowResults }: GenerateBarProps) {
  const { active, submitting, submit } = generation;
  const runnable = body !== null && blockedReason === null;
  // While a run goes on its own wait is the one shown (on the canvas); a second estimate would disagree with it.
  const predict = usePredict(runnable && !active ? body : null);
  const disabled = !runnable || active;

  // The shortcut reads the latest props without re-binding the listener on every keystroke.
  const run = useRef(() => {});
  run.current = () => {
    if (!disabled && !submitting && body) submit(body);
  };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
        event.preventDefault();
        run.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="hf-generate-bar hf-generate-bar-live">
      <PredictSummary predict={predict} blockedReason={blockedReason} active={active} />
      <div className="hf-generate-actions">
        <span className="hf-generate-shortcut" aria-hidden>
          Ctrl + Enter
        </span>
        {onShowResults && (
          <Button size="large" icon={<PictureOutlined />} onClick={onShowResults}>
            查看结果
          </Button>
        )}
        <Tooltip title={active ? '当前任务完成或中断后即可再次生成' : undefined}>
          <Button
            type="primary"
            size="large"
            icon={<ThunderboltOutlined />}
            className="hf-generate-button"
            loading={submitting}
            disabled={disabled}
            aria-keyshortcuts="Control+Enter"
            onClick={() => run.current()}
          >
            {active ? '生成中…' : '生成'}
          </Button>
        </Tooltip>
      </div>
    </div>
  );
}
