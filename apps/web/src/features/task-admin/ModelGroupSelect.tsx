import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { modelQueries } from '../../services/model';

interface ModelGroupSelectProps {
  value?: string;
  onChange: (modelId: string | undefined) => void;
}

/** A model of the model menu, grouped; disabled models are marked, since users cannot pick them yet. */
export function ModelGroupSelect({ value, onChange }: ModelGroupSelectProps) {
  const menu = useQuery(modelQueries.menu('all'));
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={value}
      onChange={(next) => onChange(next)}
      loading={menu.isPending}
      placeholder="不指定"
      aria-label="默认模型"
      options={(menu.data ?? []).map((group) => ({
        label: group.name,
        title: group.name,
        options: group.models.map((model) => ({
          value: model.id,
          label: model.enabled ? model.modelName : `${model.modelName}（未启用）`,
        })),
      }))}
    />
  );
}
