import { UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Descriptions, Space, Tag } from 'antd';
import { type DialogName, useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import './account-dialogs.css';

/** 个人信息: a read-only summary with shortcuts to the edit dialogs. */
export function ProfileDialog() {
  const user = useSession((state) => state.userData);
  const openDialog = useSession((state) => state.openDialog);

  const edit = (name: DialogName, label: string) => (
    <Button type="link" size="small" onClick={() => openDialog(name)}>
      {label}
    </Button>
  );

  return (
    <AccountModal name="profile" title="个人信息" width={480} destroyOnHidden={false}>
      {user && (
        <>
          <Space className="hf-profile-head" size={16}>
            <Avatar size={64} src={user.avatar ?? undefined} icon={<UserOutlined />} />
            <div>
              <div className="hf-profile-name">{user.nickname ?? '未设置昵称'}</div>
              <Space size={4}>
                {user.admin === 'true' && <Tag color="purple">管理员</Tag>}
                <Tag color={user.invite ? 'green' : 'default'}>{user.invite ? '已受邀' : '未填写邀请码'}</Tag>
              </Space>
            </div>
          </Space>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="昵称">
              {user.nickname ?? '—'} {edit('editNickname', '修改')}
            </Descriptions.Item>
            <Descriptions.Item label="账号">
              {user.account ?? '未设置'} {user.accountRenamable && edit('editAccount', '修改')}
              <div className="hf-muted-label">
                {user.accountRenamable ? '账号只能修改一次' : '账号已修改过，不能再改'}
              </div>
            </Descriptions.Item>
            <Descriptions.Item label="手机号">
              {user.mobile ?? '未绑定'}{' '}
              {edit(user.mobile ? 'unbindMobile' : 'bindMobile', user.mobile ? '解绑' : '绑定')}
            </Descriptions.Item>
            <Descriptions.Item label="登录密码">
              {user.hasPassword ? '已设置' : '未设置'} {edit('password', user.hasPassword ? '修改' : '设置')}
            </Descriptions.Item>
            <Descriptions.Item label="邀请码">
              {user.invite ? '已填写' : '未填写（选填）'} {!user.invite && edit('invite', '填写')}
            </Descriptions.Item>
            <Descriptions.Item label="剩余点数">{user.credits} 点</Descriptions.Item>
          </Descriptions>
        </>
      )}
    </AccountModal>
  );
}
