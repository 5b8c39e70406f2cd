import { Tabs } from 'antd';
import { PageHead } from '../../components/PageHead';
import { ModelGroupsPanel } from '../../features/model/ModelGroupsPanel';
import { PromptLibraryAdmin } from '../../features/prompt/PromptLibraryAdmin';

export default function ModelPage() {
  return (
    <div className="hf-page">
      <PageHead title="模型管理" />
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
