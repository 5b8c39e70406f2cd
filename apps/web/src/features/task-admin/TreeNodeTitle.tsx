import { MoreOutlined } from '@ant-design/icons';
import type { TaskTreeNode } from '@huafang/contracts';
import { Button, Dropdown, type MenuProps, Tag } from 'antd';
import { actionsFor, TREE_ACTION_LABELS, type TreeAction } from './tree-actions';
import { statusTagsOf } from './tree-model';

interface TreeNodeTitleProps {
  node: TaskTreeNode;
  onAction: (action: TreeAction, node: TaskTreeNode) => void;
}

/** A node's name and status; its actions open from the ⋯ button or a right click. */
export function TreeNodeTitle({ node, onAction }: TreeNodeTitleProps) {
  const actions = actionsFor(node.kind);
  const menu: MenuProps = {
    items: actions.map((action) => ({
      key: action,
      label: TREE_ACTION_LABELS[action],
      danger: action === 'delete',
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      const action = actions.find((candidate) => candidate === key);
      if (action) onAction(action, node);
    },
  };

  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <span className="hf-ta-node" data-kind={node.kind}>
        <span className="hf-ta-node-name">{node.name}</span>
        {statusTagsOf(node).map((tag) => (
          <Tag key={tag.text} color={tag.color} className="hf-ta-node-tag" variant="filled">
            {tag.text}
          </Tag>
        ))}
        <Dropdown menu={menu} trigger={['click']}>
          <Button
            type="text"
            size="small"
            icon={<MoreOutlined />}
            aria-label={`「${node.name}」的操作`}
            className="hf-ta-node-more"
            onClick={(event) => event.stopPropagation()}
          />
        </Dropdown>
      </span>
    </Dropdown>
  );
}
