import type { TaskTemplateListItem } from '@huafang/contracts';
import { TemplatePickCard } from './TemplatePickCard';
import '../tasks/tasks.css';
import './draw.css';

interface TaskTemplateSectionProps {
  task: TaskTemplateListItem;
  currentTemplateId: string | null;
  applyingId: string | null;
  onPick: (templateId: string) => void;
}

/** One task of the chosen category with its templates. */
export function TaskTemplateSection({ task, currentTemplateId, applyingId, onPick }: TaskTemplateSectionProps) {
  return (
    <section className="hf-pick-section" aria-label={task.taskName}>
      <div className="hf-pick-section-head">
        <span className="hf-pick-section-title">{task.taskName}</span>
        <span className="hf-muted-label">{task.description}</span>
      </div>
      {task.visTemplateList.length === 0 ? (
        <div className="hf-works-empty">暂无模板</div>
      ) : (
        <div className="hf-pick-grid">
          {task.visTemplateList.map((template) => (
            <TemplatePickCard
              key={template.templateId}
              template={template}
              current={template.templateId === currentTemplateId}
              loading={template.templateId === applyingId}
              onPick={onPick}
            />
          ))}
        </div>
      )}
    </section>
  );
}
