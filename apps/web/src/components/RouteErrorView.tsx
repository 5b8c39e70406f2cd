import { Button } from 'antd';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { isChunkLoadError } from '../lazy-chunk';
import { ChunkErrorView } from './ChunkErrorView';
import { StatusMessage } from './StatusMessage';

/** Errors thrown while loading or rendering a route; a chunk failure inside a page gets the chunk view. */
export function RouteErrorView() {
  const error = useRouteError();
  const reload = () => window.location.reload();

  if (isChunkLoadError(error)) return <ChunkErrorView error={error} />;

  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <StatusMessage
      status={notFound ? 'warning' : 'error'}
      title={notFound ? '404' : '页面出错了'}
      subTitle={notFound ? '抱歉，你访问的页面不存在' : '页面遇到了意外错误，请重试'}
      extra={
        <>
          <Button type="primary" onClick={reload}>
            重试
          </Button>
          <Link to="/">
            <Button>返回首页</Button>
          </Link>
        </>
      }
    />
  );
}
