import type { TaskTreeNode } from '@huafang/contracts';
import { MoveDialog } from './MoveDialog';
import { NameDialog } from './NameDialog';
import { indexTree, KIND_LABELS } from './tree-model';
import type { TreeCommands } from './use-tree-commands';

/** The dialog a tree action opened: 新建 under a parent (null: a category), 重命名 or 移动 a node. */
export type TreeDialog =
  | { kind: 'create'; parent: TaskTreeNode | null }
  | { kind: 'rename'; node: TaskTreeNode }
  | { kind: 'move'; node: TaskTreeNode }
  | null;

interface TreeDialogsProps {
  dialog: TreeDialog;
  tree: TaskTreeNode[];
  commands: TreeCommands;
  onClose: () => void;
  /** A node was created or moved: select it and open its new parent. */
  onDone: (id: string, parent: TaskTreeNode | null) => void;
}

/** The name a new child gets asked for: a task under a category, a template under a task. */
function childKind(parent: TaskTreeNode | null): string {
  if (!parent) return '分类';
  return parent.kind === 'category' ? '任务' : '模板';
}

/** 新建, 重命名 and 移动; each stays open when the server refuses, so the admin can correct and retry. */
export function TreeDialogs({ dialog, tree, commands, onClose, onDone }: TreeDialogsProps) {
  if (dialog?.kind === 'create') {
    const what = childKind(dialog.parent);
    return (
      <NameDialog
        title={`新建${what}`}
        what={what}
        onClose={onClose}
        onSubmit={async (name) => {
          const id = await commands.create(dialog.parent, name);
          if (id !== undefined) onDone(id, dialog.parent);
        }}
      />
    );
  }
  if (dialog?.kind === 'rename') {
    const what = KIND_LABELS[dialog.node.kind];
    return (
      <NameDialog
        title={`重命名${what}`}
        what={what}
        initialName={dialog.node.name}
        onClose={onClose}
        onSubmit={async (name) => {
          if (await commands.rename(dialog.node, name)) onClose();
        }}
      />
    );
  }
  if (dialog?.kind === 'move') {
    return (
      <MoveDialog
        tree={tree}
        node={dialog.node}
        onClose={onClose}
        onSubmit={async (targetId) => {
          if (await commands.move(dialog.node, targetId)) {
            onDone(dialog.node.id, indexTree(tree).get(targetId)?.node ?? null);
          }
        }}
      />
    );
  }
  return null;
}
