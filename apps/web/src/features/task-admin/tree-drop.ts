import type { TaskTreeNode } from '@huafang/contracts';
import type { TaskMoveBody, TemplateMoveBody } from '../../services/task-admin';
import { indexTree } from './tree-model';

/**
 * A drop on the tree, as antd reports it relative to the node dropped on: -1 in the gap above it,
 * 0 onto it (becoming its child), 1 in the gap below it. `dropExpanded` tells whether that node was open.
 */
export interface TreeDrop {
  dragKey: string;
  dropKey: string;
  position: -1 | 0 | 1;
  dropExpanded: boolean;
}

export type MoveRequest =
  | { kind: 'task'; body: TaskMoveBody }
  | { kind: 'template'; body: TemplateMoveBody }
  /** Drops the request body cannot even express; everything else goes to the server, which owns the rules. */
  | { kind: 'refused'; reason: string }
  /** Dropped where it already was. */
  | { kind: 'none' };

/** antd gives the drop position as an index in the whole list; this turns it into -1, 0 or 1 around the target. */
export function relativeDropPosition(dropPosition: number, targetPos: string): -1 | 0 | 1 {
  const targetIndex = Number(targetPos.split('-').at(-1));
  const relative = dropPosition - targetIndex;
  if (relative < 0) return -1;
  return relative > 0 ? 1 : 0;
}

interface Placement {
  parent: TaskTreeNode | null;
  /** Position among the new siblings without the dragged node, as task/move and template/move expect. */
  sort: number;
}

function placementOf(tree: TaskTreeNode[], drag: TaskTreeNode, drop: TreeDrop): Placement | null {
  const target = indexTree(tree).get(drop.dropKey);
  if (!target) return null;
  const opensTarget = drop.position === 1 && drop.dropExpanded && Boolean(target.node.children?.length);
  // Onto a node, or just below an open one, antd draws the dragged node as its first child.
  if (drop.position === 0 || opensTarget) return { parent: target.node, sort: 0 };
  const siblings = target.siblings.filter((node) => node.key !== drag.key);
  const at = siblings.findIndex((node) => node.key === target.node.key);
  return { parent: target.parent, sort: drop.position === 1 ? at + 1 : at };
}

/** The move request a drop asks for. */
export function moveRequestOf(tree: TaskTreeNode[], drop: TreeDrop): MoveRequest {
  const dragged = indexTree(tree).get(drop.dragKey);
  if (!dragged || drop.dragKey === drop.dropKey) return { kind: 'none' };
  const placement = placementOf(tree, dragged.node, drop);
  if (!placement) return { kind: 'none' };
  const { parent, sort } = placement;
  if (parent?.key === dragged.parent?.key && sort === dragged.index) return { kind: 'none' };
  if (parent?.kind === 'template') return { kind: 'refused', reason: '模板下不能再放其他内容' };

  const node = dragged.node;
  if (node.kind === 'template') {
    if (!parent) return { kind: 'refused', reason: '模板只能放在任务下' };
    return { kind: 'template', body: { templateId: node.id, taskId: parent.id, sort } };
  }
  return { kind: 'task', body: { taskId: node.id, parentId: parent?.id ?? null, sort } };
}
