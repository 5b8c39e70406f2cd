import { useDraw } from '../../stores/draw';
import { FormConfigForm } from '../form-config/FormConfigForm';

/** The current step's form, writing curParameters. */
export function StepParameters() {
  const formConfig = useDraw((state) => state.formConfig);
  const curParameters = useDraw((state) => state.curParameters);
  const setCurParameters = useDraw((state) => state.setCurParameters);
  return <FormConfigForm items={formConfig} values={curParameters} onChange={setCurParameters} />;
}
