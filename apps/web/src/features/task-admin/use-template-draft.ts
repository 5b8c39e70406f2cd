import type { TemplateDetail } from '@huafang/contracts';
import { useMemo, useState } from 'react';
import { moveItem, removeAt, updateAt } from './list-ops';
import {
  draftFromDetail,
  MAX_STEPS,
  newStep,
  type StepDraft,
  saveBodyOf,
  type TemplateBasics,
  type TemplateDraft,
} from './template-draft';

const fingerprint = (draft: TemplateDraft) => JSON.stringify(saveBodyOf(draft));

/** The template being edited, started from its saved detail; `dirty` says it differs from what is saved. */
export function useTemplateDraft(detail: TemplateDetail) {
  const [draft, setDraft] = useState(() => draftFromDetail(detail));
  const saved = useMemo(() => fingerprint(draftFromDetail(detail)), [detail]);

  return {
    draft,
    dirty: fingerprint(draft) !== saved,
    setBasics: (basics: Partial<TemplateBasics>) => setDraft((current) => ({ ...current, ...basics })),
    updateStep: (index: number, patch: Partial<StepDraft>) =>
      setDraft((current) => ({ ...current, steps: updateAt(current.steps, index, (step) => ({ ...step, ...patch })) })),
    addStep: () =>
      setDraft((current) =>
        current.steps.length >= MAX_STEPS
          ? current
          : { ...current, steps: [...current.steps, newStep(current.steps.length)] },
      ),
    removeStep: (index: number) => setDraft((current) => ({ ...current, steps: removeAt(current.steps, index) })),
    /** The order of the tabs is the order of the steps (the server numbers them as saved). */
    moveStep: (index: number, offset: -1 | 1) =>
      setDraft((current) => ({ ...current, steps: moveItem(current.steps, index, offset) })),
  };
}
