import { GENERATION_STATUS_LABELS, type GeneratedImage } from '@huafang/contracts';
import { Empty } from 'antd';
import type { ReactNode } from 'react';
import { canvasState, earlierRuns } from './canvas-state';
import { DemoEngineHint } from './DemoEngineHint';
import { GenerationProgress } from './GenerationProgress';
import type { FinishedRun } from './generation-state';
import type { ResultHandlers } from './ResultActions';
import { ResultSwiper } from './ResultSwiper';
import { ResultsGrid } from './ResultsGrid';
import type { Generation, GenerationStoreHook } from './use-generation';
import './generate.css';

interface ResultCanvasProps {
  store: GenerationStoreHook;
  generation: Generation;
  handlers: ResultHandlers;
  /** The desktop column shows the results as cards, the phone sheet one at a time. */
  variant: 'column' | 'sheet';
  /** What to do before the first run, for this page and step. */
  emptyHint: string;
}

function runLabel(run: FinishedRun): string {
  const parts = [`步骤 ${run.stepIndex + 1}`, `${run.images.length} 张`];
  if (run.status !== 'succeeded') parts.push(GENERATION_STATUS_LABELS[run.status]);
  return parts.join(' · ');
}

/**
 * The result canvas of /draw and /chuangyi: what to do (empty), the place in the queue, the live preview with
 * progress, one ETA and 中断, then the results with 下一步 / 保存 / 再次生成 / 做同款 on each, or what went
 * wrong with 重试. It shows only runs of the template and step on screen (see withoutEarlierRuns).
 */
export function ResultCanvas({ store, generation, handlers, variant, emptyHint }: ResultCanvasProps) {
  const generateId = store((state) => state.generateId);
  const currentStepId = store((state) => state.currentStepId);
  const detachedStepId = store((state) => state.detachedStepId);
  const finishDataList = store((state) => state.finishDataList);
  const track = { generateId, currentStepId, detachedStepId, finishDataList };
  const state = canvasState(track, generation.progress, generation.submitting);
  const earlier = earlierRuns(track);

  const results = (run: FinishedRun | undefined, images: GeneratedImage[]) =>
    variant === 'sheet' ? (
      <ResultSwiper images={images} run={run} handlers={handlers} />
    ) : (
      <ResultsGrid images={images} run={run} handlers={handlers} />
    );
  const progress = (onRetry?: () => void) => (
    <GenerationProgress
      progress={state.kind === 'empty' ? undefined : state.progress}
      error={generation.progressError}
      interrupting={generation.interrupting}
      onInterrupt={generation.interrupt}
      onRetry={onRetry}
      background={state.kind === 'background'}
    />
  );

  let current: ReactNode;
  if (state.kind === 'empty' || state.kind === 'background') {
    current = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyHint} />;
  } else if (state.kind === 'running') {
    current =
      state.images.length > 0 ? (
        results(undefined, state.images)
      ) : (
        <div className="hf-results-waiting hf-muted-label">图片生成后会显示在这里</div>
      );
  } else {
    current =
      state.run.images.length > 0 ? (
        results(state.run, state.run.images)
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="这次运行没有完成的图片" />
      );
  }

  const retry = state.kind === 'finished' && state.run.status !== 'succeeded' ? handlers.againOf(state.run) : null;
  return (
    <div className={`hf-canvas hf-canvas-${variant}`}>
      {state.kind !== 'empty' && progress(retry ?? undefined)}
      <section className="hf-panel hf-results" aria-label="本次结果">
        <div className="hf-results-title">本次结果</div>
        {current}
        <DemoEngineHint />
      </section>
      {earlier.length > 0 && (
        <section className="hf-panel hf-results" aria-label="更早的结果">
          <div className="hf-results-title">更早的结果</div>
          {earlier.map((run) => (
            <div key={run.stepId} className="hf-results-run">
              <div className="hf-results-run-head hf-muted-label">{runLabel(run)}</div>
              <ResultsGrid images={run.images} run={run} handlers={handlers} />
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
