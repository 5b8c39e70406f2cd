import type { ArtModel } from '@huafang/contracts';

export const ENGINE_LABELS: Record<ArtModel['engine'], string> = {
  builtin: '内置演示引擎',
  sdwebui: 'A1111 · Forge',
  comfyui: 'ComfyUI',
};

export const ENGINE_OPTIONS = (Object.keys(ENGINE_LABELS) as ArtModel['engine'][]).map((value) => ({
  value,
  label: ENGINE_LABELS[value],
}));
