import { useDraw } from '../../stores/draw';
import { CurrentTemplateCard } from './CurrentTemplateCard';
import { StepTabs } from './StepTabs';
import { TaskSelectDialog } from './TaskSelectDialog';
import './draw.css';

/** Narrow screens: the aside's task card and step tabs, at the top of the stacked /draw flow. */
export function StackedTemplateCard() {
  const templateId = useDraw((state) => state.templateId);
  return (
    <>
      {templateId && (
        <section className="hf-panel hf-draw-aside hf-draw-stacked" aria-label="当前任务">
          <CurrentTemplateCard />
          <StepTabs />
        </section>
      )}
      <TaskSelectDialog />
    </>
  );
}
