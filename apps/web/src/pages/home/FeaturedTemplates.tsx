import { useQuery } from '@tanstack/react-query';
import { Button, Empty } from 'antd';
import { useNavigate } from 'react-router';
import { requireLogin } from '../../features/account/require-login';
import { useApplyTemplate } from '../../features/draw/use-apply-template';
import { CardGridSkeleton } from '../../features/tasks/CardGridSkeleton';
import { FeaturedTemplateCard } from '../../features/tasks/FeaturedTemplateCard';
import { taskQueries } from '../../services/task';
import './home.css';

const SKELETON_CARDS = 4;

/**
 * 精选模板: only the templates an admin featured; a card opens /draw with it. None featured: the section is left
 * out rather than filled with other templates.
 */
export function FeaturedTemplates() {
  const featured = useQuery(taskQueries.featured());
  const navigate = useNavigate();
  const { apply, applyingId } = useApplyTemplate();

  function open(templateId: string) {
    // A guest logs in (or signs up) first and lands in this template (require-login.ts).
    if (!requireLogin({ kind: 'template', templateId })) return;
    apply(templateId, { onSuccess: () => navigate('/draw') });
  }

  if (featured.isSuccess && featured.data.length === 0) return null;

  return (
    <section className="hf-home-section" aria-label="精选模板">
      <div className="hf-section-head">
        <h2>精选模板</h2>
        <span className="hf-section-sub">挑一个模板，几秒出图</span>
      </div>
      {featured.isPending ? (
        <CardGridSkeleton
          count={SKELETON_CARDS}
          className="hf-template-row"
          bodyClassName="hf-template-info"
          rows={1}
        />
      ) : featured.isError ? (
        <Empty description="精选模板加载失败">
          <Button onClick={() => void featured.refetch()}>重试</Button>
        </Empty>
      ) : (
        <div className="hf-template-row">
          {featured.data.map((template) => (
            <FeaturedTemplateCard
              key={template.templateId}
              template={template}
              opening={applyingId === template.templateId}
              onOpen={open}
            />
          ))}
        </div>
      )}
    </section>
  );
}
