import type { AdminUserItem } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { PageHead } from '../../components/PageHead';
import { CreditGrantDialog } from '../../features/admin/CreditGrantDialog';
import { formatDateTime } from '../../features/admin/format';
import { usePagedQuery } from '../../features/admin/use-paged-query';
import { fetchAdminUsers } from '../../services/admin';
import '../../features/admin/admin-pages.css';

const USERS_KEY = ['admin', 'users'] as const;

function columns(onGrant: (user: AdminUserItem) => void): TableColumnsType<AdminUserItem> {
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
    { title: '注册时间', dataIndex: 'createdAt', width: 170, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_value, user) => (
        <Button type="link" size="small" onClick={() => onGrant(user)}>
          调整算力
        </Button>
      ),
    },
  ];
}

export default function UsersPage() {
  const [keyword, setKeyword] = useState('');
  const [granting, setGranting] = useState<AdminUserItem | null>(null);
  const queryClient = useQueryClient();
  const { tableProps, reload } = usePagedQuery([...USERS_KEY, keyword], (page) =>
    fetchAdminUsers({ ...page, keyword: keyword || undefined }),
  );

  function search(value: string) {
    setKeyword(value.trim());
    reload();
  }

  function onGranted() {
    setGranting(null);
    // Stay on the page the admin is looking at; only the balances change.
    void queryClient.invalidateQueries({ queryKey: USERS_KEY });
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
          columns={columns(setGranting)}
          locale={{ emptyText: keyword ? '没有找到匹配的用户' : '暂无用户' }}
          {...tableProps}
        />
      </div>
      <CreditGrantDialog user={granting} onClose={() => setGranting(null)} onGranted={onGranted} />
    </div>
  );
}
