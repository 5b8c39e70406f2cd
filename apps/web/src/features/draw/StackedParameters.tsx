import { SettingOutlined } from '@ant-design/icons';
import { Collapse } from 'antd';
import { useDraw } from '../../stores/draw';
import { takesImage } from '../form-config/required-images';
import { StepParameters } from './StepParameters';
import './draw.css';

/**
 * Narrow screens: the step's parameters below the prompts, so the flow reads top to bottom. The fields that take
 * the user's images (底图, a ControlNet 参考图) stay open above the folded 参数设置: the step hinges on them.
 */
export function StackedParameters() {
  const templateId = useDraw((state) => state.templateId);
  const stepKey = useDraw((state) => state.stepKey);
  const hasImages = useDraw((state) => state.formConfig.some((item) => item.show && takesImage(item)));
  // A new template or step starts its form afresh, as in the aside.
  const key = `${templateId}-${stepKey}`;
  return (
    <section className="hf-draw-stacked-params" aria-label="参数设置">
      {hasImages && (
        <div className="hf-panel hf-draw-stacked-images">
          <StepParameters key={`${key}-images`} part="images" />
        </div>
      )}
      <Collapse
        items={[
          {
            key: 'parameters',
            forceRender: true,
            label: (
              <span className="hf-aside-title">
                <SettingOutlined /> 参数设置
              </span>
            ),
            children: <StepParameters key={key} part={hasImages ? 'rest' : 'all'} />,
          },
        ]}
      />
    </section>
  );
}
