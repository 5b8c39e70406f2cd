import { PlusOutlined } from '@ant-design/icons';
import { type BackendItem, ENGINE_KINDS, MSG } from '@huafang/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useEditDialog } from '../../common/use-edit-dialog';
import { PageHead } from '../../components/PageHead';
import { useSubmit } from '../../features/account/use-submit';
import { BackendDialog } from '../../features/admin/BackendDialog';
import { BackendStatus } from '../../features/admin/BackendStatus';
import { checkBackend, deleteBackend, fetchBackends } from '../../services/admin';
import { toast } from '../../services/notices';
import '../../features/admin/admin-pages.css';

const BACKENDS_KEY = ['admin', 'backends'] as const;
/** Health is re-checked by the server in the background; the table follows without a manual refresh. */
const REFRESH_MS = 30_000;

interface RowActions {
  checkingId: string | null;
  onCheck: (backend: BackendItem) => void;
  onEdit: (backend: BackendItem) => void;
  onDelete: (backend: BackendItem) => Promise<void>;
}

function columns({ checkingId, onCheck, onEdit, onDelete }: RowActions): TableColumnsType<BackendItem> {
  return [
    {
      title: '名称',
      dataIndex: 'name',
      render: (name: string, backend) => (
        <span className="hf-admin-name">
          {name}
          {backend.builtin && <Tag color="purple">内置</Tag>}
        </span>
      ),
    },
    { title: '类型', dataIndex: 'kind', width: 180, render: (kind: BackendItem['kind']) => ENGINE_KINDS[kind].label },
    { title: '地址', dataIndex: 'baseUrl', render: (url: string) => url || '—' },
    {
      title: '提供的模型',
      dataIndex: 'models',
      render: (models: string[]) =>
        models.length ? (
          <span className="hf-admin-tags">
            {models.map((model) => (
              <Tag key={model}>{model}</Tag>
            ))}
          </span>
        ) : (
          <span className="hf-admin-muted">全部模型</span>
        ),
    },
    { title: '状态', key: 'status', width: 220, render: (_value, backend) => <BackendStatus backend={backend} /> },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      render: (_value, backend) => (
        <Space size={0}>
          <Button type="link" size="small" loading={checkingId === backend.id} onClick={() => onCheck(backend)}>
            检测
          </Button>
          {!backend.builtin && (
            <>
              <Button type="link" size="small" onClick={() => onEdit(backend)}>
                编辑
              </Button>
              <Popconfirm
                title={`删除后端「${backend.name}」？`}
                description="删除后不再向它派发任务"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete(backend)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      ),
    },
  ];
}

/** 推理后端: the servers the generation queue dispatches to, with their health. */
export default function BackendsPage() {
  const queryClient = useQueryClient();
  const backends = useQuery({ queryKey: BACKENDS_KEY, queryFn: fetchBackends, refetchInterval: REFRESH_MS });
  const dialog = useEditDialog<BackendItem>();
  const [checkingId, setCheckingId] = useState<string | null>(null);
  const { submit } = useSubmit();

  const refresh = () => queryClient.invalidateQueries({ queryKey: BACKENDS_KEY });

  async function onCheck(backend: BackendItem) {
    setCheckingId(backend.id);
    try {
      await submit(async () => {
        const checked = await checkBackend(backend.id);
        queryClient.setQueryData<BackendItem[]>(BACKENDS_KEY, (list) =>
          list?.map((item) => (item.id === checked.id ? checked : item)),
        );
        if (checked.healthy) toast(`「${checked.name}」连接正常`, 'success');
        else toast(`「${checked.name}」连接异常：${checked.healthMessage}`, 'warning');
      });
    } finally {
      setCheckingId(null);
    }
  }

  const onDelete = (backend: BackendItem) =>
    submit(async () => {
      await deleteBackend(backend.id);
      toast(MSG.deleted, 'success');
      await refresh();
    });

  function onSaved() {
    dialog.close();
    void refresh();
  }

  return (
    <div className="hf-page">
      <PageHead title="推理后端">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.show()}>
          添加后端
        </Button>
      </PageHead>
      <div className="hf-panel">
        <Table<BackendItem>
          rowKey="id"
          columns={columns({ checkingId, onCheck, onEdit: dialog.show, onDelete })}
          dataSource={backends.data}
          loading={backends.isPending}
          pagination={false}
          locale={{ emptyText: '暂无推理后端，点击右上角添加' }}
        />
      </div>
      <BackendDialog open={dialog.open} backend={dialog.editing} onClose={dialog.close} onSaved={onSaved} />
    </div>
  );
}
