import { lazy } from 'react';
import { lazyNamed } from '../../components/MountWhenOpened';
import { loadChunk } from '../../lazy-chunk';

/**
 * The parts of /draw its first screen does without (no template chosen yet: the parameter forms, the prompt panels
 * with 词库 and translation, the task picker, the quota notice and the tour): each comes as its own chunk when it is
 * first shown, so the page paints with the header, the template card and the empty state alone.
 */
export const LazyStepTabs = lazyNamed(() => loadChunk('draw-steps', () => import('./StepTabs')), 'StepTabs');
export const LazyStepParameters = lazyNamed(
  () => loadChunk('draw-parameters', () => import('./StepParameters')),
  'StepParameters',
);
export const LazyStackedParameters = lazyNamed(
  () => loadChunk('draw-parameters', () => import('./StackedParameters')),
  'StackedParameters',
);
export const LazyTaskSelectDialog = lazyNamed(
  () => loadChunk('task-select', () => import('./TaskSelectDialog')),
  'TaskSelectDialog',
);
export const LazyPromptGroupPanel = lazyNamed(
  () => loadChunk('prompt-panel', () => import('../prompt/PromptGroupPanel')),
  'PromptGroupPanel',
);
export const LazyQuotaNoticeDialog = lazyNamed(
  () => loadChunk('quota-notice', () => import('../generate/QuotaNoticeDialog')),
  'QuotaNoticeDialog',
);
export const LazyDrawTour = lazy(async () => ({
  default: (await loadChunk('draw-tour', () => import('./DrawTour'))).DrawTour,
}));
