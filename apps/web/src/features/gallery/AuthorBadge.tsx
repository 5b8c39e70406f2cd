import { UserOutlined } from '@ant-design/icons';
import type { PublicWorkItem } from '@huafang/contracts';
import { Avatar } from 'antd';

/** Avatar and nickname of a public work's author. */
export function AuthorBadge({ author, size = 20 }: { author: PublicWorkItem['author']; size?: number }) {
  return (
    <span className="hf-author">
      <Avatar size={size} src={author.avatar ?? undefined} icon={<UserOutlined />} alt="" />
      <span className="hf-author-name">{author.nickname}</span>
    </span>
  );
}
