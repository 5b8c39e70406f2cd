import { Empty } from 'antd';
import { useDraw } from '../../stores/draw';
import { CurrentTemplateCard } from './CurrentTemplateCard';
import { StepParameters } from './StepParameters';
import { StepTabs } from './StepTabs';
import { TaskSelectDialog } from './TaskSelectDialog';
import './draw.css';

/** The draw aside (≈340 px): current task and template, step tabs and the step's parameters. */
export function DrawAside() {
  const templateId = useDraw((state) => state.templateId);
  const stepKey = useDraw((state) => state.stepKey);

  return (
    <div className="hf-draw-aside-inner">
      <CurrentTemplateCard />
      {templateId ? (
        <>
          <StepTabs />
          <div className="hf-aside-title">参数设置</div>
          {/* A new template or step starts its form afresh (model tab, upload state). */}
          <StepParameters key={`${templateId}-${stepKey}`} />
        </>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="选择模板后即可调整参数" />
      )}
      <TaskSelectDialog />
    </div>
  );
}
