import { Empty } from 'antd';
import { Suspense } from 'react';
import { useDraw } from '../../stores/draw';
import { CurrentTemplateCard } from './CurrentTemplateCard';
import { LazyStepParameters, LazyStepTabs, LazyTaskSelectDialog } from './draw-lazy';
import './draw.css';

/** The draw aside (≈340 px): current task and template, step tabs and the step's parameters. */
export function DrawAside() {
  const templateId = useDraw((state) => state.templateId);
  const stepKey = useDraw((state) => state.stepKey);

  return (
    <div className="hf-draw-aside-inner">
      <CurrentTemplateCard />
      {templateId ? (
        <Suspense fallback={null}>
          <LazyStepTabs />
          <div className="hf-aside-title">参数设置</div>
          {/* A new template or step starts its form afresh (model tab, upload state). */}
          <LazyStepParameters key={`${templateId}-${stepKey}`} />
        </Suspense>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="选择模板后即可调整参数" />
      )}
      <Suspense fallback={null}>
        <LazyTaskSelectDialog />
      </Suspense>
    </div>
  );
}
