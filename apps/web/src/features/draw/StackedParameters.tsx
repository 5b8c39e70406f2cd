import { SettingOutlined } from '@ant-design/icons';
import { Collapse } from 'antd';
import { useDraw } from '../../stores/draw';
import { StepParameters } from './StepParameters';
import './draw.css';

/** Narrow screens: the step's parameters fold below the prompts, so the flow reads top to bottom. */
export function StackedParameters() {
  const templateId = useDraw((state) => state.templateId);
  const stepKey = useDraw((state) => state.stepKey);
  return (
    <section className="hf-draw-stacked-params" aria-label="参数设置">
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
            // A new template or step starts its form afresh, as in the aside.
            children: <StepParameters key={`${templateId}-${stepKey}`} />,
          },
        ]}
      />
    </section>
  );
}
