import type { Parameters } from '@huafang/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  createGenerationActions,
  GENERATION_DEFAULTS,
  type GenerationStore,
  pickGenerationTrack,
} from '../features/generate/generation-state';
import {
  CHUANGYI_DRAFT_DEFAULTS,
  CHUANGYI_STORAGE_KEY,
  type ChuangyiDraft,
  repairSavedChuangyi,
} from './chuangyi-storage';
import { useSession } from './session';
import { browserStorage } from './session-storage';

/** 自由创作 (/chuangyi): the typed prompts and parameters, and its own current generation. */
interface ChuangyiState extends ChuangyiDraft, GenerationStore {
  setPrompt(prompt: string): void;
  setNegativePrompt(negativePrompt: string): void;
  setParameters(parameters: Parameters): void;
  reset(): void;
}

export const useChuangyi = create<ChuangyiState>()(
  persist(
    (set, get) => ({
      ...CHUANGYI_DRAFT_DEFAULTS,
      ...GENERATION_DEFAULTS,
      ...createGenerationActions(set, get),
      setPrompt(prompt) {
        set({ prompt });
      },
      setNegativePrompt(negativePrompt) {
        set({ negativePrompt });
      },
      setParameters(parameters) {
        set({ parameters });
      },
      reset() {
        set({ ...CHUANGYI_DRAFT_DEFAULTS, ...GENERATION_DEFAULTS });
      },
    }),
    {
      name: CHUANGYI_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(browserStorage),
      partialize: (state) => ({
        prompt: state.prompt,
        negativePrompt: state.negativePrompt,
        parameters: state.parameters,
        ...pickGenerationTrack(state),
      }),
      migrate: repairSavedChuangyi,
      merge: (saved, current) => ({ ...current, ...repairSavedChuangyi(saved) }),
    },
  ),
);

// Like the draw draft, the free-creation draft belongs to the user who typed it.
useSession.subscribe((state, previous) => {
  if (previous.token && !state.token) useChuangyi.getState().reset();
});
