import { GENERATE_MODE_LABELS, type TaskTemplateListItem } from '@huafang/contracts';
import { Button, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { CoverImage } from './CoverImage';
import { RelatedWorksStrip } from './RelatedWorksStrip';
import './tasks.css';

type VisTemplate = TaskTemplateListItem['visTemplateList'][number];

interface TemplateCardProps {
  template: VisTemplate;
  applying: boolean;
  onUse: (templateId: string) => void;
  /** Owner's actions on a template of their own copied task. */
  actions?: ReactNode;
}

export function TemplateCard({ template, applying, onUse, actions }: TemplateCardProps) {
  return (
    <div className="hf-card hf-template-detail-card" data-template-id={template.templateId}>
      <CoverImage src={template.cover} name={template.name} seed={template.templateId} />
      <div className="hf-card-body">
        <div className="hf-card-title">{template.name}</div>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="hf-card-desc">
          {template.description || '暂无描述'}
        </Typography.Paragraph>
        <div className="hf-card-meta hf-muted">
          <span>{template.stepCount} 个步骤</span>
          <Tag color="purple" variant="filled">
            {GENERATE_MODE_LABELS[template.generateMode]}
          </Tag>
        </div>
        <div className="hf-card-label">相关作品</div>
        <RelatedWorksStrip templateId={template.templateId} />
        <Button type="primary" block loading={applying} onClick={() => onUse(template.templateId)}>
          使用模板
        </Button>
        {actions}
      </div>
    </div>
  );
}
