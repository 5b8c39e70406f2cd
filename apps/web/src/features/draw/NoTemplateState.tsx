import { AppstoreAddOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import { useDraw } from '../../stores/draw';

export function NoTemplateState() {
  const openTaskSelect = useDraw((state) => state.openTaskSelect);
  return (
    <div className="hf-panel hf-empty-panel">
      <Empty description="还没有选择模板">
        <Button type="primary" icon={<AppstoreAddOutlined />} onClick={openTaskSelect}>
          选择模板
        </Button>
      </Empty>
    </div>
  );
}
