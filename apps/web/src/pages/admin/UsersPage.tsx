import { type AdminUserItem, MSG } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import { PageHead } from '../../components/PageHead';
import { CreditGrantDialog } from '../../features/admin/CreditGrantDialog';
import { userLabel } from '../../features/admin/format';
import { useFilteredPagedQuery } from '../../features/admin/use-paged-query';
import { adminKeys, fetchAdminUsers, setUserDisabled } from '../../services/admin';
import { toast } from '../../services/notices';
import '../../features/admin/admin-pages.css';

type RowActions = {
  onGrant(user: AdminUserItem): void;
  onDisable(user: AdminUserItem, disabled: boolean): Promise<void>;
};

function columns({ onGrant, onDisable }: RowActions): TableColumnsType<AdminUserItem> {
  const orDash = (value: string | null) => value || '—';
  return [
    { title: '账号', dataIndex: 'account', render: orDash },
    { title: '昵称', dataIndex: 'nickname', render: orDash },
    { title: '手机号', dataIndex: 'mobile', width: 140, render: orDash },
    {
      title: '角色',
      dataIndex: 'admin',
      width: 100,
      render: (admin: boolean) => (admin ? <Tag color="gold">管理员</Tag> : <Tag>普通用户</Tag>),
    },
    {
      title: '剩余算力',
      dataIndex: 'credits',
      width: 110,
      align: 'right',
      render: (credits: number) => `${credits} 点`,
    },
    {
      title: '状态',
      dataIndex: 'disabled',
      width: 90,
      render: (disabled: boolean) => (disabled ? <Tag color="red">已停用</Tag> : <Tag color="green">正常</Tag>),
    },
    { title: '注册时间', dataIndex: 'createdAt', width: 170, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      render: (_value, user) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onGrant(user)}>
            调整算力
          </Button>
          {user.disabled ? (
            <Button type="link" size="small" onClick={() => void onDisable(user, false)}>
              启用
            </Button>
          ) : (
            !user.admin && (
              <ConfirmAction
                title={`停用「${userLabel(user)}」的账号？`}
                description="停用后该用户立即退出登录，且无法再登录，直到重新启用"
                okText="停用"
                onConfirm={() => onDisable(user, true)}
              />
            )
          )}
        </Space>
      ),
    },
  ];
}

export default function UsersPage() {
  const [granting, setGranting] = useState<AdminUserItem | null>(null);
  const queryClient = useQueryClient();
  const {
    filter: keyword,
    changeFilter,
    tableProps,
  } = useFilteredPagedQuery<string, AdminUserItem>('', adminKeys.userSearch, (keyword, page) =>
    fetchAdminUsers({ ...page, keyword: keyword || undefined }),
  );

  const search = (value: string) => changeFilter(value.trim());

  async function onDisable(user: AdminUserItem, disabled: boolean) {
    try {
      await setUserDisabled({ userId: user.userId, disabled });
    } catch {
      // The request layer has already shown the refusal (e.g. 不能停用自己的账号).
      return;
    }
    toast(MSG.set, 'success');
    void queryClient.invalidateQueries({ queryKey: adminKeys.users });
  }

  function onGranted() {
    setGranting(null);
    // Stay on the page the admin is looking at; only the balances change.
    void queryClient.invalidateQueries({ queryKey: adminKeys.users });
  }

  return (
    <div className="hf-page">
      <PageHead title="用户管理">
        <Input.Search
          placeholder="搜索账号、昵称或手机号"
          aria-label="搜索用户"
          allowClear
          enterButton="搜索"
          maxLength={32}
          onSearch={search}
          className="hf-admin-search"
        />
      </PageHead>
      <div className="hf-panel">
        <Table<AdminUserItem>
          rowKey="userId"
          columns={columns({ onGrant: setGranting, onDisable })}
          locale={{ emptyText: keyword ? '没有找到匹配的用户' : '暂无用户' }}
          {...tableProps}
        />
      </div>
      <CreditGrantDialog user={granting} onClose={() => setGranting(null)} onGranted={onGranted} />
    </div>
  );
}
