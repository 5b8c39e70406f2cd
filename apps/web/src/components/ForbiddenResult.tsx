import { Button, Result } from 'antd';
import { Link } from 'react-router';

export const FORBIDDEN_TEXT = '抱歉，你无权访问该页面';

export function ForbiddenResult() {
  return (
    <Result
      status="403"
      title="403"
      subTitle={FORBIDDEN_TEXT}
      extra={
        <Link to="/">
          <Button type="primary">返回首页</Button>
        </Link>
      }
    />
  );
}
