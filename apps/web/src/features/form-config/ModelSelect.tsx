import type { FormConfigItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Select } from 'antd';
import { useState } from 'react';
import { modelQueries } from '../../services/model';
import { ModelOption } from './ModelOption';
import { groupOfModel, modelTabs } from './model-tabs';
import './parameter-form.css';

interface ModelSelectProps {
  item: FormConfigItem;
  value: unknown;
  onChange: (value: string) => void;
}

/** modelId: the enabled models grouped by model group, with the groups of modelTabList as tabs. */
export function ModelSelect({ item, value, onChange }: ModelSelectProps) {
  const menu = useQuery(modelQueries.menu('enabled'));
  const groups = modelTabs(menu.data ?? [], item.modelTabList);
  const [chosenTab, setChosenTab] = useState<string>();
  const activeTab = chosenTab ?? groupOfModel(groups, value)?.id ?? groups[0]?.id;
  const tabbed = Boolean(item.modelTabList?.length) && groups.length > 1;
  const shown = tabbed ? groups.filter((group) => group.id === activeTab) : groups;

  return (
    <div className="hf-model-select">
      {tabbed && (
        <Segmented<string>
          block
          size="small"
          value={activeTab}
          onChange={setChosenTab}
          options={groups.map((group) => ({ value: group.id, label: group.name }))}
        />
      )}
      <Select<string>
        value={typeof value === 'string' ? value : undefined}
        onChange={onChange}
        loading={menu.isPending}
        disabled={item.disabled}
        placeholder="请选择模型"
        aria-label={item.text}
        notFoundContent="暂无可用模型"
        options={shown.map((group) => ({
          label: group.name,
          title: group.name,
          options: group.models.map((model) => ({ label: model.modelName, value: model.id, model })),
        }))}
        optionRender={(option) => (option.data.model ? <ModelOption model={option.data.model} /> : option.label)}
      />
    </div>
  );
}
