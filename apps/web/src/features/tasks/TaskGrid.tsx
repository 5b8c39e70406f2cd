import type { TaskTreeNode } from '@huafang/contracts';
import { TaskCard } from './TaskCard';

export function TaskGrid({ tasks }: { tasks: TaskTreeNode[] }) {
  return (
    <div className="hf-card-grid">
      {tasks.map((task) => (
        <TaskCard key={task.id} task={task} />
      ))}
    </div>
  );
}
