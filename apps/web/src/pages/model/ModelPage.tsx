import { Tabs } from 'antd';
import { PageHead } from '../../components/PageHead';
import { LoraAdminPanel } from '../../features/model/LoraAdminPanel';
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
            { key: 'loras', label: 'LoRA 风格', children: <LoraAdminPanel /> },
            { key: 'prompts', label: '提示词库', children: <PromptLibraryAdmin /> },
          ]}
        />
      </div>
    </div>
  );
}
