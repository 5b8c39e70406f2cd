import { App } from 'antd';
import { useEffect } from 'react';
import { bindNoticeApis } from '../services/notices';

/** Hands antd's themed message and notification instances to the request layer, which lives outside React. */
export function NoticeBridge() {
  const { message, notification } = App.useApp();
  useEffect(() => bindNoticeApis({ message, notification }), [message, notification]);
  return null;
}
