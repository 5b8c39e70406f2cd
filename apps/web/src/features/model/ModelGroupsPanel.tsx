import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { fetchModelMenu } from '../../services/model';
import { ModelTable } from './ModelTable';

/** 模型: the model groups as segments and the chosen group's models, disabled ones included. */
export function ModelGroupsPanel() {
  const menu = useQuery({ queryKey: ['modelMenu', 'all'], queryFn: () => fetchModelMenu('all') });
  const [chosenId, setChosenId] = useState<string>();
  const groups = menu.data ?? [];
  const group = groups.find((item) => item.id === chosenId) ?? groups[0];

  if (menu.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (menu.isError) {
    return (
      <Result
        status="error"
        title="模型加载失败"
        extra={
          <Button type="primary" onClick={() => menu.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  if (!group) return <Empty description="还没有模型分组" />;
  return (
    <>
      <Segmented<string>
        value={group.id}
        onChange={setChosenId}
        options={groups.map((item) => ({ value: item.id, label: `${item.name}（${item.models.length}）` }))}
        className="hf-segmented"
      />
      <ModelTable models={group.models} loading={menu.isFetching} />
    </>
  );
}
