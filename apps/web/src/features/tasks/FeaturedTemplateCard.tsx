import type { FeaturedTemplate } from '@huafang/contracts';
import { Spin } from 'antd';
import { CoverImage } from './CoverImage';
import './tasks.css';

interface FeaturedTemplateCardProps {
  template: FeaturedTemplate;
  opening: boolean;
  onOpen: (templateId: string) => void;
}

/** One of the home page's 精选模板: the whole card opens /draw with the template. */
export function FeaturedTemplateCard({ template, opening, onOpen }: FeaturedTemplateCardProps) {
  return (
    <button
      type="button"
      className="hf-template-card"
      aria-label={`使用模板 ${template.name}`}
      aria-busy={opening}
      onClick={() => onOpen(template.templateId)}
    >
      <Spin spinning={opening}>
        <CoverImage src={template.cover} name={template.name} seed={template.templateId} />
      </Spin>
      <div className="hf-template-info">
        <div className="hf-template-name">{template.name}</div>
        {/* No filler: a template without a description shows its name alone. */}
        {template.description && <p className="hf-template-desc">{template.description}</p>}
      </div>
    </button>
  );
}
