import type { TaskTreeNode } from '@huafang/contracts';
import { TaskCard } from './TaskCard';
import './tasks.css';

export function TaskGrid({ tasks }: { tasks: TaskTreeNode[] }) {
  return (
    <div className="hf-card-grid">
      {tasks.map((task) => (
        <TaskCard key={task.id} task={task} />
      ))}
    </div>
  );
}
