import { CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { GENERATE_MODE_LABELS, type TaskTemplateListItem } from '@huafang/contracts';
import { Tag } from 'antd';
import { CoverImage } from '../tasks/CoverImage';
import './draw.css';

type VisTemplate = TaskTemplateListItem['visTemplateList'][number];

interface TemplatePickCardProps {
  template: VisTemplate;
  current: boolean;
  loading: boolean;
  onPick: (templateId: string) => void;
}

/** A template in the task-selection dialog; the whole card picks it. */
export function TemplatePickCard({ template, current, loading, onPick }: TemplatePickCardProps) {
  return (
    <button
      type="button"
      className={`hf-pick-card${current ? ' hf-pick-card-current' : ''}`}
      onClick={() => onPick(template.templateId)}
      disabled={loading}
      aria-label={`选择模板 ${template.name}`}
    >
      <CoverImage src={template.cover} name={template.name} seed={template.templateId} className="hf-pick-cover" />
      <span className="hf-pick-body">
        <span className="hf-pick-name">
          {template.name}
          {loading ? <LoadingOutlined /> : current && <CheckCircleFilled className="hf-pick-current" />}
        </span>
        <span className="hf-pick-desc">{template.description || '暂无描述'}</span>
        <span className="hf-pick-meta hf-muted">
          {template.stepCount} 个步骤
          <Tag variant="filled" color="purple">
            {GENERATE_MODE_LABELS[template.generateMode]}
          </Tag>
        </span>
      </span>
    </button>
  );
}
