import { Button } from 'antd';
import { Link } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon';

export default function TaskDetailPage() {
  return (
    <ComingSoon
      title="任务详情"
      description={
        <>
          <div>任务详情即将上线，敬请期待</div>
          <Link to="/tasks">
            <Button type="link">返回全部任务</Button>
          </Link>
        </>
      }
    />
  );
}
