import { ThunderboltOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** The sticky footer of /draw; generation arrives with the next release. */
export function GenerateBar() {
  return (
    <div className="hf-generate-bar">
      <span className="hf-generate-note">生成功能即将上线</span>
      <Button type="primary" size="large" icon={<ThunderboltOutlined />} disabled className="hf-generate-button">
        生成
      </Button>
    </div>
  );
}
