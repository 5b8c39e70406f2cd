import type {
  Parameters,
  PromptGroupItem,
  TaskTemplateListItem,
  TaskTreeNode,
  TemplateDetail,
} from '@huafang/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  createGenerationActions,
  GENERATION_DEFAULTS,
  type GenerationStore,
  pickGenerationTrack,
  withoutEarlierRuns,
} from '../features/generate/generation-state';
import type { PromptVariant } from '../services/prompt';
import {
  appendPrompt,
  cleanCustomPrompts,
  DRAW_DRAFT_DEFAULTS,
  type DrawDraft,
  promptGroupOf,
  promptGroupPatch,
  removePrompt,
  switchStep,
  templateDraft,
  withShowClose,
} from './draw-state';
import { DRAW_STORAGE_KEY, repairSavedDraw, type SavedDraw } from './draw-storage';
import { useSession } from './session';
import { browserStorage } from './session-storage';

/**
 * Spec §3 draw state: the persisted draft, the current generation (its track persisted too, so a reload
 * resumes polling) and the task lists of the task-selection dialog.
 */
interface DrawState extends DrawDraft, GenerationStore {
  /** The tree's top level (categories). */
  taskData: TaskTreeNode[];
  /** The chosen category's children. */
  twoTaskData: TaskTreeNode[];
  /** The chosen category's tasks with their visible templates. */
  taskList: TaskTemplateListItem[];
  /** The task-selection dialog of spec §2. */
  taskSelectOpen: boolean;

  setTaskLists(lists: Pick<DrawState, 'taskData' | 'twoTaskData' | 'taskList'>): void;
  setHelpUrlFlag(helpUrlFlag: string): void;
  /** Switching template: earlier results and progress go (withoutEarlierRuns). */
  loadTemplateDetails(detail: TemplateDetail, stepKey?: number): void;
  /** Switching step tab by hand: earlier results and progress go too. */
  selectStep(stepKey: number): void;
  /** 下一步 opens the next step's tab: the results it continues from stay. */
  advanceToStep(stepKey: number): void;
  setCurParameters(parameters: Parameters): void;
  /** Replaces both prompt groups (recall of a work, import from history). */
  setPromptGroups(curPromptGroup: PromptGroupItem[], curNegativePromptGroup: PromptGroupItem[]): void;
  appendPrompt(variant: PromptVariant, item: PromptGroupItem): void;
  /** 编辑 / 完成: close buttons on every word of the group, or none. */
  setPromptEditing(variant: PromptVariant, editing: boolean): void;
  removePrompt(variant: PromptVariant, id: string): void;
  cleanCustomPrompts(variant: PromptVariant): void;
  /** Sets one group as a whole (撤销 of 清空自定义). */
  replacePromptGroup(variant: PromptVariant, group: PromptGroupItem[]): void;
  openTaskSelect(): void;
  closeTaskSelect(): void;
  /** Spec §4: a state reset restores defaults. */
  reset(): void;
}

const LIST_DEFAULTS = { taskData: [], twoTaskData: [], taskList: [], taskSelectOpen: false };

function pickSaved(state: DrawState): SavedDraw {
  return {
    ...pickGenerationTrack(state),
    taskSelect: state.taskSelect,
    helpUrlFlag: state.helpUrlFlag,
    templateId: state.templateId,
    stepKey: state.stepKey,
    stepIndex: state.stepIndex,
    taskTemplateDetails: state.taskTemplateDetails,
    taskSteps: state.taskSteps,
    curPromptGroup: state.curPromptGroup,
    curNegativePromptGroup: state.curNegativePromptGroup,
    curParameters: state.curParameters,
    curGenerateMode: state.curGenerateMode,
    formConfig: state.formConfig,
  };
}

export const useDraw = create<DrawState>()(
  persist(
    (set, get) => ({
      ...DRAW_DRAFT_DEFAULTS,
      ...GENERATION_DEFAULTS,
      ...LIST_DEFAULTS,
      ...createGenerationActions(set, get),

      setTaskLists(lists) {
        set(lists);
      },
      setHelpUrlFlag(helpUrlFlag) {
        set({ helpUrlFlag });
      },
      loadTemplateDetails(detail, stepKey) {
        set({ ...templateDraft(detail, stepKey), ...withoutEarlierRuns(get()) });
      },
      selectStep(stepKey) {
        set({ ...switchStep(get(), stepKey), ...withoutEarlierRuns(get()) });
      },
      advanceToStep(stepKey) {
        set(switchStep(get(), stepKey));
      },
      setCurParameters(curParameters) {
        set({ curParameters });
      },
      setPromptGroups(curPromptGroup, curNegativePromptGroup) {
        set({ curPromptGroup, curNegativePromptGroup });
      },
      appendPrompt(variant, item) {
        set(promptGroupPatch(variant, appendPrompt(promptGroupOf(get(), variant), item)));
      },
      setPromptEditing(variant, editing) {
        set(promptGroupPatch(variant, withShowClose(promptGroupOf(get(), variant), editing)));
      },
      removePrompt(variant, id) {
        set(promptGroupPatch(variant, removePrompt(promptGroupOf(get(), variant), id)));
      },
      cleanCustomPrompts(variant) {
        set(promptGroupPatch(variant, cleanCustomPrompts(promptGroupOf(get(), variant))));
      },
      replacePromptGroup(variant, group) {
        set(promptGroupPatch(variant, group));
      },
      openTaskSelect() {
        set({ taskSelectOpen: true });
      },
      closeTaskSelect() {
        set({ taskSelectOpen: false });
      },
      reset() {
        set({ ...DRAW_DRAFT_DEFAULTS, ...GENERATION_DEFAULTS, ...LIST_DEFAULTS });
      },
    }),
    {
      name: DRAW_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(browserStorage),
      partialize: pickSaved,
      migrate: repairSavedDraw,
      merge: (saved, current) => ({ ...current, ...repairSavedDraw(saved) }),
    },
  ),
);

// A draft belongs to the user who made it: signing out (or a rejected session) starts the next one afresh.
useSession.subscribe((state, previous) => {
  if (previous.token && !state.token) useDraw.getState().reset();
});
