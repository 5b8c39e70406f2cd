import { RedoOutlined, StopOutlined } from '@ant-design/icons';
import { GENERATION_STATUS_LABELS, type GenerationProgress as Progress } from '@huafang/contracts';
import { Alert, Button, Progress as ProgressBar, Tag } from 'antd';
import { waitText } from './canvas-state';
import { isFinished } from './generation-state';
import './generate.css';

interface GenerationProgressProps {
  progress: Progress | undefined;
  /** The last poll failed (it is retried). */
  error: Error | null;
  interrupting: boolean;
  onInterrupt: () => void;
  /** 重试 after a failed or interrupted run; absent when the request that started it is unknown. */
  onRetry?: () => void;
  /** A run of what was on screen before a switch of template or step. */
  background?: boolean;
}

const STATUS_COLORS: Record<Progress['status'], string> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  interrupted: 'warning',
};

function barStatus(status: Progress['status']) {
  if (status === 'failed') return 'exception' as const;
  if (status === 'succeeded') return 'success' as const;
  if (status === 'running') return 'active' as const;
  return 'normal' as const;
}

function EndNotice({ progress, onRetry }: { progress: Progress; onRetry?: () => void }) {
  if (progress.status !== 'failed' && progress.status !== 'interrupted') return null;
  const retry = onRetry && (
    <Button size="small" icon={<RedoOutlined />} onClick={onRetry}>
      重试
    </Button>
  );
  if (progress.status === 'failed') {
    return (
      <Alert
        className="hf-generation-alert"
        type="error"
        showIcon
        title="生成失败"
        description={`${progress.message ?? '推理后端出错'}。未完成部分的算力会退回。`}
        action={retry}
      />
    );
  }
  const kept = progress.images.length;
  return (
    <Alert
      className="hf-generation-alert"
      type="warning"
      showIcon
      title="已中断"
      description={kept > 0 ? `已完成的 ${kept} 张图片已保留，未完成部分的算力会退回。` : '未完成部分的算力会退回。'}
      action={retry}
    />
  );
}

/**
 * The current run at the top of the result canvas: status, percent, one wait (queue place and ETA), the live
 * preview as large as the canvas allows, 中断; how it ended, with 重试.
 */
export function GenerationProgress({
  progress,
  error,
  interrupting,
  onInterrupt,
  onRetry,
  background = false,
}: GenerationProgressProps) {
  const status = progress?.status ?? 'queued';
  const running = !progress || !isFinished(status);
  const wait = running ? waitText(progress) : '';

  return (
    <section
      className={`hf-panel hf-generation${running ? ' hf-generation-running' : ''}`}
      aria-label="生成进度"
      aria-busy={running}
    >
      <div className="hf-generation-head">
        <span className="hf-generation-title">
          {background ? '上一个生成' : '生成进度'}
          <Tag color={STATUS_COLORS[status]} variant="filled">
            {GENERATION_STATUS_LABELS[status]}
          </Tag>
          {progress && progress.currentStepNum > 1 && (
            <span className="hf-generation-meta">第 {progress.currentStepNum} 次运行</span>
          )}
        </span>
        {running && (
          <Button danger icon={<StopOutlined />} loading={interrupting} disabled={!progress} onClick={onInterrupt}>
            中断
          </Button>
        )}
      </div>
      {background && (
        <div className="hf-generation-meta">切换模板或步骤前开始的生成仍在进行，完成后可在「我的作品」查看。</div>
      )}
      <ProgressBar percent={Math.round(progress?.progress ?? 0)} status={barStatus(status)} />
      {wait && (
        <div className="hf-generation-meta" aria-live="polite">
          {wait}
        </div>
      )}
      {/* Why a started job waits again: a backend failed, a restart, its server stopped and it moves to another. */}
      {running && progress?.message && <div className="hf-generation-meta">{progress.message}</div>}
      {running && !background && (
        <div className="hf-generation-stage">
          {progress?.previewUrl ? (
            <img className="hf-generation-preview" src={progress.previewUrl} alt="实时预览" />
          ) : (
            <span className="hf-generation-stage-note">
              {status === 'queued' ? '排队中，轮到后这里显示实时预览' : '正在准备实时预览…'}
            </span>
          )}
        </div>
      )}
      {progress && <EndNotice progress={progress} onRetry={onRetry} />}
      {error && (
        <Alert
          className="hf-generation-alert"
          type="warning"
          showIcon
          title={`进度获取失败：${error.message}，正在重试…`}
        />
      )}
    </section>
  );
}
