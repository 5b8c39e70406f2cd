import { GENERATE_MODE_LABELS } from '@huafang/contracts';
import { Tabs, Tag } from 'antd';
import { useDraw } from '../../stores/draw';
import { stepTabLabel } from './step-label';
import './draw.css';

/** 步骤 1 生成 · 步骤 2 高清放大 …: switching keeps the edits of the step left behind. */
export function StepTabs() {
  const steps = useDraw((state) => state.taskSteps);
  const stepKey = useDraw((state) => state.stepKey);
  const selectStep = useDraw((state) => state.selectStep);
  const step = steps[stepKey];

  return (
    <div className="hf-step-tabs">
      <Tabs
        size="small"
        activeKey={String(stepKey)}
        onChange={(key) => selectStep(Number(key))}
        items={steps.map((item, index) => ({ key: String(index), label: stepTabLabel(index, item.name) }))}
      />
      {step && (
        <div className="hf-step-meta">
          <Tag color="purple" variant="filled">
            {GENERATE_MODE_LABELS[step.generateMode]}
          </Tag>
          {step.useParentImage && <span>使用上一步选中的结果图</span>}
        </div>
      )}
    </div>
  );
}
