import { AppstoreOutlined } from '@ant-design/icons';
import { Button, Empty, Typography } from 'antd';

/** The draw aside (≈340 px): task, template and parameters arrive with the generation issue. */
export function DrawAside() {
  return (
    <div className="hf-draw-aside-inner">
      <Typography.Text type="secondary">当前任务</Typography.Text>
      <div className="hf-draw-task">
        <AppstoreOutlined />
        <span className="hf-draw-task-name">尚未选择任务</span>
        <Button size="small" disabled>
          切换
        </Button>
      </div>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="参数设置即将上线" />
    </div>
  );
}
