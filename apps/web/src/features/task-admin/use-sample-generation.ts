import type { TaskStep } from '@huafang/contracts';
import { useState } from 'react';
import { fetchGenerationProgress, submitGeneration } from '../../services/generate';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';

/** How often the run is asked about while it paints. */
const POLL_MS = 1500;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * 生成示例: one generation of the template's first step with its own prompt groups and parameters, submitted as
 * the admin like any generation (it costs the admin's credits and shows in their 我的作品); `onDone` runs when
 * its works are saved.
 */
export function useSampleGeneration(templateId: string, step: TaskStep | undefined, onDone: () => Promise<void>) {
  const [label, setLabel] = useState<string | null>(null);

  async function start() {
    if (!step || label) return;
    setLabel('提交中…');
    try {
      const { generateId } = await submitGeneration({
        templateId,
        stepIndex: 0,
        promptGroup: step.promptGroup,
        negativePromptGroup: step.negativePromptGroup,
        parameters: step.parameters,
      });
      for (;;) {
        const progress = await fetchGenerationProgress(generateId);
        if (progress.status === 'succeeded') break;
        if (progress.status === 'failed' || progress.status === 'interrupted') {
          toast(progress.message ?? '示例生成失败');
          return;
        }
        setLabel(progress.status === 'queued' ? '排队中…' : `生成中 ${Math.round(progress.progress)}%`);
        await wait(POLL_MS);
      }
      toast('示例已生成，可在列表中选用', 'success');
      await onDone();
    } catch (error) {
      // The request layer already said why (余额不足, 模板未发布…).
      if (!isRequestError(error) || !error.notified) toast('示例生成失败');
    } finally {
      setLabel(null);
    }
  }

  return { start, running: label !== null, label: label ?? '' };
}
