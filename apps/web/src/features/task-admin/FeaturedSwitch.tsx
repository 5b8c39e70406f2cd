import type { TemplateDetail } from '@huafang/contracts';
import { useMutation } from '@tanstack/react-query';
import { Form, InputNumber, Switch, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { setTemplateFeatured } from '../../services/task-admin';
import { useRefreshTasks } from './use-refresh-tasks';

/**
 * 设为精选 and 精选排序 of an official template: applied at once (not part of the draft), shown on the home page's
 * 精选模板 while the template is published and public.
 */
export function FeaturedSwitch({ detail }: { detail: TemplateDetail }) {
  const refresh = useRefreshTasks();
  const [featured, setFeatured] = useState(detail.featured ?? false);
  const [sort, setSort] = useState(detail.featuredSort ?? 0);
  const save = useMutation({
    mutationFn: (next: { featured: boolean; featuredSort: number }) =>
      setTemplateFeatured({ templateId: detail.templateId, ...next }),
    onMutate: (next) => {
      setFeatured(next.featured);
      setSort(next.featuredSort);
    },
    onSuccess: (msg) => {
      toast(msg, 'success');
      void refresh();
    },
    // The request layer said why; the switch goes back to what the server holds.
    onError: () => {
      setFeatured(detail.featured ?? false);
      setSort(detail.featuredSort ?? 0);
    },
  });

  return (
    <Form layout="inline" component="div" className="hf-ta-featured">
      <Form.Item label="设为精选">
        <Switch
          aria-label="设为精选"
          checked={featured}
          loading={save.isPending}
          onChange={(checked) => save.mutate({ featured: checked, featuredSort: sort })}
        />
      </Form.Item>
      {featured && (
        <Form.Item label="精选排序">
          <InputNumber
            aria-label="精选排序"
            min={0}
            max={999}
            precision={0}
            value={sort}
            onChange={(value) => setSort(value ?? 0)}
            onBlur={() => sort !== (detail.featuredSort ?? 0) && save.mutate({ featured, featuredSort: sort })}
            onPressEnter={() => save.mutate({ featured, featuredSort: sort })}
          />
        </Form.Item>
      )}
      <Typography.Text type="secondary">
        {detail.visibility === 'public'
          ? '首页「精选模板」按排序从小到大展示已发布的精选模板'
          : '仅管理员可见的模板不会出现在首页'}
      </Typography.Text>
    </Form>
  );
}
