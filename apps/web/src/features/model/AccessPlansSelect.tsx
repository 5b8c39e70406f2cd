import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { storeQueries } from '../../services/store';

interface AccessPlansSelectProps {
  value?: string[];
  onChange?: (planIds: string[]) => void;
  id?: string;
}

/** 可用范围: the plans (套餐) whose holders may use a model or LoRA; none chosen is everyone. */
export function AccessPlansSelect({ value, onChange, id }: AccessPlansSelectProps) {
  const plans = useQuery(storeQueries.adminCombos());
  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      allowClear
      value={value ?? []}
      onChange={onChange}
      loading={plans.isPending}
      placeholder="不选则所有用户可用"
      notFoundContent={plans.isError ? '套餐读取失败' : '还没有套餐，先在「套餐配置」里添加'}
      options={(plans.data ?? []).map((plan) => ({ value: plan.id, label: plan.name }))}
      showSearch={{ optionFilterProp: 'label' }}
    />
  );
}
