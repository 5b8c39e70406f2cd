import type { GenerateBody, GeneratedImage } from '@huafang/contracts';
import { type ReactNode, useState } from 'react';
import { useIsAtLeast } from '../../common/use-screen';
import { GenerateBar } from './GenerateBar';
import type { FinishedRun } from './generation-state';
import type { ResultHandlers } from './ResultActions';
import { ResultCanvas } from './ResultCanvas';
import { ResultSheet } from './ResultSheet';
import type { Generation, GenerationStoreHook, RunRequest } from './use-generation';
import './generate.css';

interface GenerationWorkspaceProps {
  store: GenerationStoreHook;
  generation: Generation;
  /** The run 生成 submits (null: nothing yet), and why it cannot run now. */
  body: GenerateBody | null;
  blockedReason: string | null;
  /** Without it (no template chosen) the page has no generate bar. */
  showBar: boolean;
  onNextStep?: (run: FinishedRun, image: GeneratedImage) => void;
  /** Fills the form with what made the image (its seed included). */
  onMakeSame: (run: FinishedRun, image: GeneratedImage) => void;
  emptyHint: string;
  /**
   * From which width the canvas gets a column of its own: /draw, whose aside takes 340 px, needs `xl`; below it
   * the canvas is the sheet.
   */
  columnFrom?: 'lg' | 'xl';
  /** The form: prompts and parameters. */
  children: ReactNode;
}

/**
 * The creation workspace of /draw and /chuangyi, with the picture always in view. Wide screens: the form on the
 * left (its generate bar sticky at the bottom of that column) and the result canvas on the right, sticky, so it
 * stays in view while the form scrolls. Narrow screens: the form alone, and 生成 opens the canvas as a
 * full-height sheet over it.
 */
export function GenerationWorkspace({
  store,
  generation,
  body,
  blockedReason,
  showBar,
  onNextStep,
  onMakeSame,
  emptyHint,
  columnFrom = 'lg',
  children,
}: GenerationWorkspaceProps) {
  const narrow = !useIsAtLeast(columnFrom);
  const [sheetOpen, setSheetOpen] = useState(false);
  const closeSheet = () => setSheetOpen(false);

  // Every new run opens the sheet from the tap on; a refused one (算力不足…) closes it again.
  const start = (send: () => void) => {
    setSheetOpen(true);
    send();
  };
  const submit: Generation['submit'] = (next, options) =>
    start(() =>
      generation.submit(next, {
        ...options,
        onError: (...args) => {
          closeSheet();
          options?.onError?.(...args);
        },
      }),
    );
  const resend = (request: RunRequest) => start(() => generation.resend(request));
  const fallback: RunRequest | null = body && !blockedReason ? { kind: 'generate', body } : null;

  const handlers: ResultHandlers = {
    onNextStep,
    againOf: (run) => {
      const request = generation.requestOf(run.stepId) ?? fallback;
      return request ? () => resend(request) : null;
    },
    onMakeSame: (run, image) => {
      closeSheet();
      onMakeSame(run, image);
    },
    steppingWorkId: generation.steppingWorkId,
    busy: generation.active || generation.submitting,
  };
  const canvas = (variant: 'column' | 'sheet') => (
    <ResultCanvas store={store} generation={generation} handlers={handlers} variant={variant} emptyHint={emptyHint} />
  );
  const hasRun = store((state) => state.generateId !== null) || generation.submitting;

  return (
    <div className={`hf-workspace${narrow ? '' : ' hf-workspace-wide'}`}>
      <div className="hf-workspace-form">
        {children}
        {showBar && (
          <GenerateBar
            body={body}
            blockedReason={blockedReason}
            generation={{ active: generation.active, submitting: generation.submitting, submit }}
            onShowResults={narrow && hasRun ? () => setSheetOpen(true) : undefined}
          />
        )}
      </div>
      {narrow ? (
        <ResultSheet open={sheetOpen} onClose={closeSheet}>
          {canvas('sheet')}
        </ResultSheet>
      ) : (
        <aside className="hf-workspace-canvas" aria-label="结果画布">
          {canvas('column')}
        </aside>
      )}
    </div>
  );
}
