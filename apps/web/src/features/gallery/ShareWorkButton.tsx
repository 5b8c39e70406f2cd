import { ShareAltOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { copyText } from './copy-text';
import { workPageUrl } from './share-link';

/** 复制链接: the work's own page, which a friend opens without an account and can 做同款 from. */
export function ShareWorkButton({ workId }: { workId: string }) {
  return (
    <Button icon={<ShareAltOutlined />} onClick={() => copyText(workPageUrl(workId), '链接已复制，发给好友即可查看')}>
      复制链接
    </Button>
  );
}
