import { Tabs, Typography } from 'antd';
import { ModelGroupsPanel } from '../../features/model/ModelGroupsPanel';
import { PromptLibraryAdmin } from '../../features/prompt/PromptLibraryAdmin';

export default function ModelPage() {
  return (
    <div className="hf-page">
      <Typography.Title level={3} className="hf-page-title">
        模型管理
      </Typography.Title>
      <div className="hf-panel">
        <Tabs
          destroyOnHidden
          items={[
            { key: 'models', label: '模型', children: <ModelGroupsPanel /> },
            { key: 'prompts', label: '提示词库', children: <PromptLibraryAdmin /> },
          ]}
        />
      </div>
    </div>
  );
}
