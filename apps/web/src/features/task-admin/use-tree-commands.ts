import { MSG, type TaskTreeNode } from '@huafang/contracts';
import { toast } from '../../services/notices';
import { isRequestError } from '../../services/request-error';
import {
  copyTask,
  copyTemplate,
  createTask,
  deleteTask,
  deleteTemplate,
  moveTask,
  moveTemplate,
  renameTemplate,
  saveTemplate,
  updateTask,
} from '../../services/task-admin';
import { newTemplateBody } from './template-draft';
import type { MoveRequest } from './tree-drop';
import { useRefreshTasks } from './use-refresh-tasks';

export type TreeCommands = ReturnType<typeof useTreeCommands>;

/**
 * The tree's writes. Each shows a success toast and reloads the tree, also after a refusal, so the tree
 * always shows the server's order. A refusal the request layer has already shown resolves to null or false.
 */
export function useTreeCommands() {
  const refresh = useRefreshTasks();

  async function run<T>(task: () => Promise<T>, success: string): Promise<{ value: T } | null> {
    try {
      const value = await task();
      toast(success, 'success');
      return { value };
    } catch (error) {
      if (isRequestError(error) && error.notified) return null;
      throw error;
    } finally {
      await refresh();
    }
  }

  const succeeded = async (outcome: Promise<unknown>) => (await outcome) !== null;

  return {
    /** Resolves to the new node's id. */
    create: async (parent: TaskTreeNode | null, name: string): Promise<string | undefined> => {
      if (parent?.kind === 'task') {
        const saved = await run(() => saveTemplate('draft', newTemplateBody(parent.id, name)), '已新建模板');
        return saved?.value.templateId;
      }
      const created = await run(
        () => createTask({ parentId: parent?.id ?? null, name }),
        parent ? '已新建任务' : '已新建分类',
      );
      return created?.value.id;
    },
    rename: (node: TaskTreeNode, name: string) =>
      succeeded(
        run<unknown>(
          () => (node.kind === 'template' ? renameTemplate(node.id, name) : updateTask(node.id, { name })),
          '已重命名',
        ),
      ),
    /** Resolves to the copy's id. */
    copy: async (node: TaskTreeNode): Promise<string | undefined> => {
      if (node.kind === 'template') {
        return (await run(() => copyTemplate({ templateId: node.id }), '复制成功'))?.value.templateId;
      }
      return (await run(() => copyTask({ taskId: node.id }), '复制成功'))?.value.id;
    },
    move: (node: TaskTreeNode, targetId: string) =>
      succeeded(
        run(
          () =>
            node.kind === 'template'
              ? moveTemplate({ templateId: node.id, taskId: targetId })
              : moveTask({ taskId: node.id, parentId: targetId }),
          '移动成功',
        ),
      ),
    remove: (node: TaskTreeNode) =>
      succeeded(run(() => (node.kind === 'template' ? deleteTemplate(node.id) : deleteTask(node.id)), MSG.deleted)),
    drop: async (request: MoveRequest): Promise<void> => {
      if (request.kind === 'none') return;
      if (request.kind === 'refused') {
        toast(request.reason);
        return;
      }
      await run(() => (request.kind === 'template' ? moveTemplate(request.body) : moveTask(request.body)), '移动成功');
    },
  };
}
