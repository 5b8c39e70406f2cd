import { ExclamationCircleOutlined, InfoCircleOutlined, LoadingOutlined } from '@ant-design/icons';
import type { usePredict } from './use-predict';

interface PredictSummaryProps {
  predict: ReturnType<typeof usePredict>;
  blockedReason: string | null;
  /** A run is queued or running: its progress (and its one ETA) is on the result canvas. */
  active: boolean;
}

/** 预计消耗 N 点 · 剩余 M 点 · 排队第 K 位 · 约 S 秒, or why there is no estimate. */
export function PredictSummary({ predict, blockedReason, active }: PredictSummaryProps) {
  if (blockedReason) {
    return (
      <div className="hf-generate-estimate">
        <InfoCircleOutlined />
        &nbsp;{blockedReason}
      </div>
    );
  }
  if (active) {
    return (
      <div className="hf-generate-estimate" aria-live="polite">
        <LoadingOutlined />
        &nbsp;正在生成，进度见生成结果
      </div>
    );
  }
  if (predict.isError && !predict.isFetching) {
    return (
      <div className="hf-generate-estimate hf-generate-estimate-warn" role="alert">
        <ExclamationCircleOutlined />
        &nbsp;{predict.error.message}
      </div>
    );
  }
  const estimate = predict.data;
  if (!estimate) {
    return (
      <div className="hf-generate-estimate">
        <LoadingOutlined />
        &nbsp;正在估算消耗…
      </div>
    );
  }
  const short = estimate.cost > estimate.credits;
  return (
    <div className="hf-generate-estimate" aria-live="polite" aria-busy={predict.isFetching}>
      <span className="hf-generate-estimate-item">
        预计消耗 <strong>{estimate.cost}</strong> 点
      </span>
      <span className={`hf-generate-estimate-item${short ? ' hf-generate-short' : ''}`}>
        剩余 <strong>{estimate.credits}</strong> 点{short && '，算力不足'}
      </span>
      <span className="hf-generate-estimate-item">
        排队第 <strong>{estimate.queuePosition}</strong> 位
      </span>
      <span className="hf-generate-estimate-item">
        约 <strong>{estimate.etaSeconds}</strong> 秒
      </span>
    </div>
  );
}
