import type { TaskTreeNode } from '@huafang/contracts';
import { Empty } from 'antd';
import { TaskNodeForm } from './TaskNodeForm';
import { TemplateEditor } from './TemplateEditor';

interface NodeEditorProps {
  node: TaskTreeNode | undefined;
}

/** The right pane: the selected category's or task's form, or the template editor. */
export function NodeEditor({ node }: NodeEditorProps) {
  if (!node) {
    return (
      <div className="hf-panel hf-empty-panel">
        <Empty description="在左侧选择分类、任务或模板进行编辑；右键节点或点击 ⋯ 可新建、重命名、复制、移动和删除" />
      </div>
    );
  }
  return node.kind === 'template' ? (
    <TemplateEditor key={node.id} templateId={node.id} published={node.published} />
  ) : (
    <TaskNodeForm key={`${node.id}-${node.name}-${node.description}-${node.published}`} node={node} />
  );
}
