import { useDraw } from '../../stores/draw';
import { FormConfigForm } from '../form-config/FormConfigForm';
import { takesImage } from '../form-config/required-images';
import { DRAW_LORA_PROMPTS } from './lora/draw-lora-prompts';
import { LoraPromptContext } from './lora/lora-prompt-target';

interface StepParametersProps {
  /** The whole form, only the fields taking the user's images, or the others. */
  part?: 'all' | 'images' | 'rest';
}

/** The current step's form, writing curParameters. */
export function StepParameters({ part = 'all' }: StepParametersProps) {
  const formConfig = useDraw((state) => state.formConfig);
  const curParameters = useDraw((state) => state.curParameters);
  const setCurParameters = useDraw((state) => state.setCurParameters);
  const items = part === 'all' ? formConfig : formConfig.filter((item) => takesImage(item) === (part === 'images'));
  return (
    <LoraPromptContext value={DRAW_LORA_PROMPTS}>
      <FormConfigForm items={items} values={curParameters} onChange={setCurParameters} />
    </LoraPromptContext>
  );
}
