import { GENERATION_STATUS_LABELS, type GeneratedImage, type GenerationProgress } from '@huafang/contracts';
import { Empty } from 'antd';
import { DemoEngineHint } from './DemoEngineHint';
import type { FinishedRun } from './generation-state';
import { ResultsGrid } from './ResultsGrid';
import './generate.css';

interface GenerationResultsProps {
  /** The current step as polled; its images show while the rest of the batch paints. */
  progress: GenerationProgress | undefined;
  currentStepId: string | null;
  finishDataList: FinishedRun[];
  onNextStep?: (run: FinishedRun, image: GeneratedImage) => void;
  steppingWorkId: string | null;
  busy: boolean;
}

function runLabel(run: FinishedRun): string {
  const parts = [`步骤 ${run.stepIndex + 1}`, `${run.images.length} 张`];
  if (run.status !== 'succeeded') parts.push(GENERATION_STATUS_LABELS[run.status]);
  return parts.join(' · ');
}

function emptyText(currentStepId: string | null, currentRun: FinishedRun | undefined): string {
  if (!currentStepId) return '还没有生成结果，点「生成」开始创作';
  return currentRun ? '这次运行没有完成的图片' : '图片生成后会显示在这里';
}

/** 本次结果 (the current step) and, below, the earlier results of this visit. */
export function GenerationResults({
  progress,
  currentStepId,
  finishDataList,
  onNextStep,
  steppingWorkId,
  busy,
}: GenerationResultsProps) {
  const currentRun = finishDataList.find((run) => run.stepId === currentStepId);
  const painted = progress && progress.currentStepId === currentStepId ? progress.images : [];
  const currentImages = currentRun?.images ?? painted;
  const earlier = finishDataList.filter((run) => run.stepId !== currentStepId && run.images.length > 0);
  const grid = (run: FinishedRun | undefined, images: GeneratedImage[]) => (
    <ResultsGrid
      images={images}
      nextStep={run?.nextStep ?? null}
      onNextStep={run && onNextStep ? (image) => onNextStep(run, image) : undefined}
      steppingWorkId={steppingWorkId}
      busy={busy}
    />
  );

  return (
    <>
      <section className="hf-panel hf-results" aria-label="本次结果">
        <div className="hf-results-title">本次结果</div>
        {currentImages.length > 0 ? (
          grid(currentRun, currentImages)
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText(currentStepId, currentRun)} />
        )}
        <DemoEngineHint />
      </section>
      {earlier.length > 0 && (
        <section className="hf-panel hf-results" aria-label="更早的结果">
          <div className="hf-results-title">更早的结果</div>
          {earlier.map((run) => (
            <div key={run.stepId} className="hf-results-run">
              <div className="hf-results-run-head hf-muted-label">{runLabel(run)}</div>
              {grid(run, run.images)}
            </div>
          ))}
        </section>
      )}
    </>
  );
}
