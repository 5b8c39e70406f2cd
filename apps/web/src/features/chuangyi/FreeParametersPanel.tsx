import { FREE_CREATION_FORM } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { modelQueries } from '../../services/model';
import { useChuangyi } from '../../stores/chuangyi';
import { LoraPromptContext } from '../draw/lora/lora-prompt-target';
import { FormConfigForm } from '../form-config/FormConfigForm';
import { CHUANGYI_LORA_PROMPTS } from './chuangyi-lora-prompts';

/** Model, size, count, steps, CFG, sampler and seed: the 自由创作 form the server checks against. */
export function FreeParametersPanel() {
  const parameters = useChuangyi((state) => state.parameters);
  const setParameters = useChuangyi((state) => state.setParameters);
  // The same query the model select reads: preselect the first model, the one the server would default to.
  const menu = useQuery(modelQueries.menu('enabled'));
  const firstModelId = menu.data?.flatMap((group) => group.models)[0]?.id;

  useEffect(() => {
    const state = useChuangyi.getState();
    if (firstModelId && typeof state.parameters.modelId !== 'string') {
      state.setParameters({ ...state.parameters, modelId: firstModelId });
    }
  }, [firstModelId]);

  return (
    <section className="hf-panel hf-chuangyi-panel hf-chuangyi-params" aria-label="参数设置">
      <div className="hf-chuangyi-panel-title">参数设置</div>
      <LoraPromptContext value={CHUANGYI_LORA_PROMPTS}>
        <FormConfigForm items={FREE_CREATION_FORM} values={parameters} onChange={setParameters} />
      </LoraPromptContext>
    </section>
  );
}
