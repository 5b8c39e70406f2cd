import { StopOutlined } from '@ant-design/icons';
import { GENERATION_STATUS_LABELS, type GenerationProgress as Progress } from '@huafang/contracts';
import { Alert, Button, Progress as ProgressBar, Tag } from 'antd';
import { isFinished } from './generation-state';
import './generate.css';

interface GenerationProgressProps {
  progress: Progress | undefined;
  /** The last poll failed (it is retried). */
  error: Error | null;
  interrupting: boolean;
  onInterrupt: () => void;
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

function waitText(progress: Progress): string | null {
  if (progress.status === 'queued') return `排队第 ${progress.queuePosition} 位 · 约 ${progress.etaSeconds} 秒后开始`;
  if (progress.status === 'running') return `预计还需约 ${progress.etaSeconds} 秒`;
  return null;
}

function EndNotice({ progress }: { progress: Progress }) {
  if (progress.status === 'failed') {
    return (
      <Alert
        className="hf-generation-alert"
        type="error"
        showIcon
        title="生成失败"
        description={`${progress.message ?? '推理后端出错'}。未完成部分的算力会退回。`}
      />
    );
  }
  if (progress.status !== 'interrupted') return null;
  const kept = progress.images.length;
  return (
    <Alert
      className="hf-generation-alert"
      type="warning"
      showIcon
      title="已中断"
      description={kept > 0 ? `已完成的 ${kept} 张图片已保留，未完成部分的算力会退回。` : '未完成部分的算力会退回。'}
    />
  );
}

/** The current run: status, percent, queue place and ETA, the live preview, 中断; how it ended. */
export function GenerationProgress({ progress, error, interrupting, onInterrupt }: GenerationProgressProps) {
  const status = progress?.status ?? 'queued';
  const running = !progress || !isFinished(status);
  const wait = progress ? waitText(progress) : '正在获取进度…';

  return (
    <section className="hf-panel hf-generation" aria-label="生成进度">
      <div className="hf-generation-head">
        <span className="hf-generation-title">
          生成进度
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
      <ProgressBar percent={Math.round(progress?.progress ?? 0)} status={barStatus(status)} />
      {wait && <div className="hf-generation-meta">{wait}</div>}
      {/* Why a started job waits again: a backend failed, a restart, its server stopped and it moves to another. */}
      {running && progress?.message && <div className="hf-generation-meta">{progress.message}</div>}
      {running && progress?.previewUrl && (
        <img className="hf-generation-preview" src={progress.previewUrl} alt="实时预览" />
      )}
      {progress && <EndNotice progress={progress} />}
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
