import { type BackendItem, ENGINE_KINDS } from '@huafang/contracts';
import { Button, Space, type TableColumnsType, Tag } from 'antd';
import { EditDeleteActions } from '../../common/EditDeleteActions';
import { AdminListPage } from '../../features/admin/AdminListPage';
import { BackendDialog } from '../../features/admin/BackendDialog';
import { BackendStatus } from '../../features/admin/BackendStatus';
import { useAdminList } from '../../features/admin/use-admin-list';
import { adminKeys, adminQueries, checkBackend, deleteBackend } from '../../services/admin';
import { toast } from '../../services/notices';

/** Health is re-checked by the server in the background; the table follows without a manual refresh. */
const REFRESH_MS = 30_000;

interface RowActions {
  checkingId: string | null;
  onCheck: (backend: BackendItem) => Promise<void>;
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
          <span className="hf-muted">全部模型</span>
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
            <EditDeleteActions
              onEdit={() => onEdit(backend)}
              deleteTitle={`删除后端「${backend.name}」？`}
              deleteDescription="删除后不再向它派发任务"
              onDelete={() => onDelete(backend)}
            />
          )}
        </Space>
      ),
    },
  ];
}

/** 推理后端: the servers the generation queue dispatches to, with their health. */
export default function BackendsPage() {
  const page = useAdminList({ ...adminQueries.backends(), refetchInterval: REFRESH_MS });

  const onCheck = (backend: BackendItem) =>
    page.runOnRow(backend, async () => {
      const checked = await checkBackend(backend.id);
      page.queryClient.setQueryData<BackendItem[]>(adminKeys.backends, (list) =>
        list?.map((item) => (item.id === checked.id ? checked : item)),
      );
      if (checked.healthy) toast(`「${checked.name}」连接正常`, 'success');
      else toast(`「${checked.name}」连接异常：${checked.healthMessage}`, 'warning');
    });

  const onDelete = (backend: BackendItem) => page.remove(() => deleteBackend(backend.id));

  return (
    <AdminListPage<BackendItem>
      title="推理后端"
      addLabel="添加后端"
      onAdd={() => page.dialog.show()}
      columns={columns({ checkingId: page.busyId, onCheck, onEdit: page.dialog.show, onDelete })}
      rows={page.list.data}
      loading={page.list.isPending}
      emptyText="暂无推理后端，点击右上角添加"
    >
      <BackendDialog
        open={page.dialog.open}
        backend={page.dialog.editing}
        onClose={page.dialog.close}
        onSaved={page.saved}
      />
    </AdminListPage>
  );
}
