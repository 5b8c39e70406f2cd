import { AppstoreOutlined, FileTextOutlined, FolderOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { TaskTreeNode } from '@huafang/contracts';
import { App, Button, Empty, Input, Skeleton, Tooltip, Tree, type TreeDataNode, type TreeProps } from 'antd';
import { type Key, useEffect, useRef, useState } from 'react';
import { type TreeDialog, TreeDialogs } from './TreeDialogs';
import { TreeNodeTitle } from './TreeNodeTitle';
import { deleteWarning, type TreeAction } from './tree-actions';
import { moveRequestOf, relativeDropPosition } from './tree-drop';
import { filterTree, indexTree, KIND_LABELS, parentKeys } from './tree-model';
import { useTreeCommands } from './use-tree-commands';

interface TaskTreePanelProps {
  tree: TaskTreeNode[];
  loading: boolean;
  selectedKey: string | null;
  onSelect: (key: string | null) => void;
  onReload: () => void;
}

type TreeItem = TreeDataNode & { node: TaskTreeNode };

const KIND_ICONS = {
  category: <FolderOutlined />,
  task: <AppstoreOutlined />,
  template: <FileTextOutlined />,
};

function toTreeItems(nodes: TaskTreeNode[]): TreeItem[] {
  return nodes.map((node) => ({
    key: node.key,
    node,
    icon: KIND_ICONS[node.kind],
    isLeaf: !node.children?.length,
    children: node.children ? toTreeItems(node.children) : undefined,
  }));
}

/** Scrolls only the tree's own box (not the page) so that `node` shows, centred, if it is out of sight. */
function centreInside(box: HTMLElement, node: Element) {
  const boxRect = box.getBoundingClientRect();
  const nodeRect = node.getBoundingClientRect();
  if (nodeRect.top >= boxRect.top && nodeRect.bottom <= boxRect.bottom) return;
  box.scrollTop += nodeRect.top - boxRect.top - (box.clientHeight - nodeRect.height) / 2;
}

/** Categories → tasks → templates with drag ordering and the 新建/重命名/复制/移动/删除 actions. */
export function TaskTreePanel({ tree, loading, selectedKey, onSelect, onReload }: TaskTreePanelProps) {
  const { modal } = App.useApp();
  const commands = useTreeCommands();
  const [keyword, setKeyword] = useState('');
  const [expandedKeys, setExpandedKeys] = useState<Key[]>();
  const [dialog, setDialog] = useState<TreeDialog>(null);
  const bodyRef = useRef<HTMLDivElement>(null);

  // A node selected from elsewhere (a new node, a copy, a link) may sit below the fold of a long tree; the tree
  // draws a freshly expanded branch a frame later, so the look-up waits for it.
  useEffect(() => {
    if (!selectedKey || tree.length === 0) return;
    const frame = requestAnimationFrame(() => {
      const body = bodyRef.current;
      const node = body?.querySelector('.ant-tree-treenode-selected');
      if (body && node) centreInside(body, node);
    });
    return () => cancelAnimationFrame(frame);
  }, [selectedKey, tree]);

  const searching = keyword.trim() !== '';
  const shown = filterTree(tree, keyword);
  const treeExpanded = expandedKeys ?? parentKeys(tree);
  // While searching every match is open; the admin's own open/closed state comes back when the search is cleared.
  const expanded = searching ? parentKeys(shown) : treeExpanded;

  function reveal(id: string | undefined, parent: TaskTreeNode | null) {
    if (!id) return;
    if (parent) setExpandedKeys([...new Set([...treeExpanded, parent.key])]);
    onSelect(id);
  }

  function confirmDelete(node: TaskTreeNode) {
    modal.confirm({
      title: `删除${KIND_LABELS[node.kind]}「${node.name}」？`,
      content: deleteWarning(node.kind),
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        const removed = await commands.remove(node);
        if (removed && selectedKey !== null && indexTree([node]).has(selectedKey)) onSelect(null);
      },
    });
  }

  function onAction(action: TreeAction, node: TaskTreeNode) {
    switch (action) {
      case 'createTask':
      case 'createTemplate':
        setDialog({ kind: 'create', parent: node });
        return;
      case 'rename':
        setDialog({ kind: 'rename', node });
        return;
      case 'move':
        setDialog({ kind: 'move', node });
        return;
      case 'copy':
        void commands.copy(node).then((id) => reveal(id, indexTree(tree).get(node.key)?.parent ?? null));
        return;
      case 'delete':
        confirmDelete(node);
        return;
    }
  }

  const onDrop: TreeProps<TreeItem>['onDrop'] = (info) => {
    const request = moveRequestOf(tree, {
      dragKey: String(info.dragNode.key),
      dropKey: String(info.node.key),
      position: relativeDropPosition(info.dropPosition, info.node.pos),
      dropExpanded: info.node.expanded,
    });
    void commands.drop(request);
  };

  return (
    <div className="hf-ta-tree">
      <div className="hf-ta-tree-head">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create', parent: null })}>
          新建分类
        </Button>
        <Tooltip title="刷新">
          <Button icon={<ReloadOutlined />} onClick={onReload} aria-label="刷新任务树" />
        </Tooltip>
      </div>
      <Input.Search
        allowClear
        placeholder="搜索分类、任务或模板"
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
        aria-label="搜索任务树"
      />
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : shown.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={searching ? '没有名称匹配的节点' : '还没有分类，点击上方新建分类'}
        />
      ) : (
        <div ref={bodyRef} className="hf-ta-tree-body">
          <Tree<TreeItem>
            blockNode
            showIcon
            draggable={searching ? false : { icon: false }}
            treeData={toTreeItems(shown)}
            expandedKeys={expanded}
            onExpand={searching ? undefined : setExpandedKeys}
            selectedKeys={selectedKey ? [selectedKey] : []}
            onSelect={(_keys, info) => onSelect(String(info.node.key))}
            onDrop={onDrop}
            titleRender={(item) => <TreeNodeTitle node={item.node} onAction={onAction} />}
          />
        </div>
      )}
      {searching && <div className="hf-muted">搜索时不能拖动排序，清空搜索后再拖动</div>}

      <TreeDialogs
        dialog={dialog}
        tree={tree}
        commands={commands}
        onClose={() => setDialog(null)}
        onDone={(id, parent) => {
          setDialog(null);
          reveal(id, parent);
        }}
      />
    </div>
  );
}
