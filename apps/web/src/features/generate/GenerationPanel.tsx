import type { GeneratedImage } from '@huafang/contracts';
import { GenerationProgress } from './GenerationProgress';
import { GenerationResults } from './GenerationResults';
import type { FinishedRun } from './generation-state';
import type { Generation, GenerationStoreHook } from './use-generation';

interface GenerationPanelProps {
  store: GenerationStoreHook;
  generation: Generation;
  onNextStep?: (run: FinishedRun, image: GeneratedImage) => void;
}

/** The centre of /draw and /chuangyi below the inputs: the current run's progress, then the results. */
export function GenerationPanel({ store, generation, onNextStep }: GenerationPanelProps) {
  const generateId = store((state) => state.generateId);
  const currentStepId = store((state) => state.currentStepId);
  const finishDataList = store((state) => state.finishDataList);

  return (
    <>
      {generateId && (
        <GenerationProgress
          progress={generation.progress}
          error={generation.progressError}
          interrupting={generation.interrupting}
          onInterrupt={generation.interrupt}
        />
      )}
      <GenerationResults
        progress={generation.progress}
        currentStepId={currentStepId}
        finishDataList={finishDataList}
        onNextStep={onNextStep}
        steppingWorkId={generation.steppingWorkId}
        busy={generation.active || generation.submitting}
      />
    </>
  );
}
