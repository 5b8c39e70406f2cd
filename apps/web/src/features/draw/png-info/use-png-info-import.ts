import { type FormOption, type LoraStyle, readPngInfo } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { modelQueries } from '../../../services/model';
import { optionQueries } from '../../../services/options';
import { http } from '../../../services/request';
import { useDraw } from '../../../stores/draw';
import { modelTabs } from '../../form-config/model-tabs';
import { newCustomWordId } from '../../prompt/custom-word';
import { fillFromPngInfo, SOURCE_NAMES } from './form-fill';

/** The LoRA styles the user may pick (GET /api/art/loras, LoraStyle in packages/contracts/src/lora.ts). */
export const LORA_STYLES_URL = '/api/art/loras';

/** The outcome the notice shows. */
export type PngInfoOutcome =
  | { kind: 'filled'; fileName: string; source: string; filled: string[]; unmatched: string[] }
  | { kind: 'empty'; fileName: string }
  | { kind: 'failed'; fileName: string; message: string };

const MAX_BYTES = 50 * 1024 * 1024;

/**
 * 读取图片信息: reads a PNG made by 画坊, AUTOMATIC1111/Forge or ComfyUI and fills /draw's prompt groups and the
 * current step's parameters with what the site has, saying what it could not match.
 */
export function usePngInfoImport() {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<PngInfoOutcome | null>(null);
  const [reading, setReading] = useState(false);

  async function read(file: File): Promise<PngInfoOutcome> {
    const fileName = file.name;
    if (file.size > MAX_BYTES) return { kind: 'failed', fileName, message: '图片超过 50 MB，无法读取' };
    const info = await readPngInfo(new Uint8Array(await file.arrayBuffer()));
    if (!info) return { kind: 'empty', fileName };
    const { formConfig, curParameters, curPromptGroup, curNegativePromptGroup } = useDraw.getState();
    const modelField = formConfig.find((item) => item.name === 'modelId');
    const samplerUrl = formConfig.find((item) => item.name === 'sampler')?.url;
    const [menu, samplers, loras] = await Promise.all([
      modelField ? queryClient.fetchQuery(modelQueries.menu('enabled')) : Promise.resolve([]),
      samplerUrl ? queryClient.fetchQuery(optionQueries.formOptions(samplerUrl)) : Promise.resolve([] as FormOption[]),
      info.loras.length > 0
        ? http.get<LoraStyle[]>(LORA_STYLES_URL, undefined, { quiet: true }).catch(() => null)
        : Promise.resolve([]),
    ]);
    const models = modelTabs(menu, modelField?.modelTabList).flatMap((group) => group.models);
    const fill = fillFromPngInfo(info, {
      formConfig,
      current: curParameters,
      models,
      samplers: samplers.map((option) => String(option.value)),
      loras,
      newId: () => newCustomWordId(),
    });
    const draw = useDraw.getState();
    draw.setPromptGroups(
      fill.promptGroup.length > 0 ? fill.promptGroup : curPromptGroup,
      fill.negativePromptGroup.length > 0 ? fill.negativePromptGroup : curNegativePromptGroup,
    );
    draw.setCurParameters(fill.parameters);
    return {
      kind: 'filled',
      fileName,
      source: SOURCE_NAMES[info.source],
      filled: fill.filled,
      unmatched: fill.unmatched,
    };
  }

  async function importFile(file: File) {
    setReading(true);
    try {
      setOutcome(await read(file));
    } catch {
      setOutcome({ kind: 'failed', fileName: file.name, message: '读取失败，请检查网络后重试' });
    } finally {
      setReading(false);
    }
  }

  return { importFile, reading, outcome, dismiss: () => setOutcome(null) };
}
