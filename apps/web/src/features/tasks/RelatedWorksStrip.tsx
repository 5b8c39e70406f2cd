import { useQuery } from '@tanstack/react-query';
import { Image, Skeleton } from 'antd';
import { taskQueries } from '../../services/task';
import { WorkThumb } from '../gallery/WorkThumb';
import './tasks.css';

/** Public works made with a template: WebP thumbnails, the original only in the preview; a quiet line until there are some. */
export function RelatedWorksStrip({ templateId }: { templateId: string }) {
  const works = useQuery(taskQueries.relatedWorks(templateId));

  if (works.isPending) return <Skeleton.Input active size="small" block className="hf-works-strip" />;
  const list = works.data?.list ?? [];
  if (list.length === 0) return <div className="hf-works-strip hf-works-empty">暂无作品</div>;
  return (
    <div className="hf-works-strip">
      <Image.PreviewGroup>
        {list.map((work) => (
          <WorkThumb key={work.id} work={work} alt={`${work.author.nickname} 的作品`} />
        ))}
      </Image.PreviewGroup>
    </div>
  );
}
