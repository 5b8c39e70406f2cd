import { ComingSoon } from '../../components/ComingSoon';

export default function TasksPage() {
  return <ComingSoon title="全部任务" description="任务与模板即将上线，敬请期待" />;
}
