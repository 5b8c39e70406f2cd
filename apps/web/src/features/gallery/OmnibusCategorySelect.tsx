import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { taskQueries } from '../../services/task';

interface OmnibusCategorySelectProps {
  value: string | undefined;
  onChange: (categoryId: string | undefined) => void;
}

/** The task categories of the published tree (that route needs login, so the page shows this only then). */
export function OmnibusCategorySelect({ value, onChange }: OmnibusCategorySelectProps) {
  const tree = useQuery(taskQueries.tree(''));
  const options = (tree.data ?? [])
    .filter((node) => node.kind === 'category')
    .map((category) => ({ label: category.name, value: category.id }));
  return (
    <Select
      className="hf-omnibus-category"
      aria-label="按分类筛选"
      placeholder="全部分类"
      allowClear
      loading={tree.isPending}
      options={options}
      value={value}
      onChange={(next: string | undefined) => onChange(next)}
    />
  );
}
