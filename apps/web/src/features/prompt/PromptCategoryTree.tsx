import type { PromptTreeNode } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton, Tree, type TreeDataNode } from 'antd';
import type { PromptVariant } from '../../services/prompt';
import { HELP_URL_FLAG, promptQueries } from '../../services/prompt';

interface PromptCategoryTreeProps {
  variant: PromptVariant;
  selectedId: string | null;
  onSelect: (category: { id: string; name: string } | null) => void;
}

function countWords(node: PromptTreeNode): number {
  return (node.children ?? []).reduce((sum, child) => sum + (child.kind === 'word' ? 1 : countWords(child)), 0);
}

/** Only the categories of the tree, each with how many words it holds. */
function categoryNodes(nodes: PromptTreeNode[]): TreeDataNode[] {
  return nodes
    .filter((node) => node.kind === 'category')
    .map((node) => ({
      key: node.id,
      title: `${node.name}（${countWords(node)}）`,
      children: categoryNodes(node.children ?? []),
    }));
}

function findName(nodes: PromptTreeNode[], id: string): string | undefined {
  for (const node of nodes) {
    if (node.id === id) return node.name;
    const inChild = findName(node.children ?? [], id);
    if (inChild) return inChild;
  }
  return undefined;
}

/** The category tree of the whole library (helpUrlFlag 02); clicking the selected one again shows all words. */
export function PromptCategoryTree({ variant, selectedId, onSelect }: PromptCategoryTreeProps) {
  const tree = useQuery(promptQueries.tree(variant, HELP_URL_FLAG.all));

  if (tree.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  const nodes = tree.data ?? [];
  if (nodes.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有分类" />;
  return (
    <Tree
      blockNode
      defaultExpandAll
      selectedKeys={selectedId ? [selectedId] : []}
      treeData={categoryNodes(nodes)}
      onSelect={(keys) => {
        const id = keys[0] === undefined ? null : String(keys[0]);
        onSelect(id ? { id, name: findName(nodes, id) ?? '' } : null);
      }}
    />
  );
}
