import { type ComboPlan, type ComboPlanBody, formatFen } from '@huafang/contracts';
import { Switch, type TableColumnsType, Tag } from 'antd';
import { editDeleteColumn } from '../../common/edit-delete-column';
import { AdminListPage } from '../../features/admin/AdminListPage';
import { ComboPlanDialog } from '../../features/admin/ComboPlanDialog';
import { useAdminList } from '../../features/admin/use-admin-list';
import { toast } from '../../services/notices';
import { deleteCombo, storeQueries, updateCombo } from '../../services/store';

interface RowActions {
  togglingId: string | null;
  onToggle: (plan: ComboPlan, enabled: boolean) => Promise<void>;
  onEdit: (plan: ComboPlan) => void;
  onDelete: (plan: ComboPlan) => Promise<void>;
}

function bodyOf(plan: ComboPlan): ComboPlanBody {
  const { id: _id, ...body } = plan;
  return body;
}

function columns({ togglingId, onToggle, onEdit, onDelete }: RowActions): TableColumnsType<ComboPlan> {
  return [
    { title: '排序', dataIndex: 'sort', width: 70 },
    {
      title: '套餐名称',
      dataIndex: 'name',
      render: (name: string, plan) => (
        <span className="hf-admin-name">
          {name}
          {plan.recommended && <Tag color="volcano">推荐</Tag>}
        </span>
      ),
    },
    { title: '价格', dataIndex: 'priceFen', width: 130, render: (fen: number) => formatFen(fen) },
    { title: '算力', dataIndex: 'credits', width: 110, align: 'right', render: (credits: number) => `${credits} 点` },
    {
      title: '有效期',
      dataIndex: 'validityDays',
      width: 100,
      render: (days: number | null) => (days === null ? '永久有效' : `${days} 天`),
    },
    {
      title: '权益',
      dataIndex: 'features',
      render: (features: string[]) =>
        features.length ? (
          <span className="hf-admin-tags">
            {features.map((feature) => (
              <Tag key={feature}>{feature}</Tag>
            ))}
          </span>
        ) : (
          '—'
        ),
    },
    {
      title: '上架',
      dataIndex: 'enabled',
      width: 80,
      render: (enabled: boolean, plan) => (
        <Switch
          size="small"
          checked={enabled}
          loading={togglingId === plan.id}
          aria-label={`上架「${plan.name}」`}
          onChange={(next) => onToggle(plan, next)}
        />
      ),
    },
    editDeleteColumn(120, (plan) => ({
      onEdit: () => onEdit(plan),
      deleteTitle: `删除套餐「${plan.name}」？`,
      deleteDescription: '删除后用户在套餐商店中不再看到它',
      onDelete: () => onDelete(plan),
    })),
  ];
}

/** 套餐配置: the plans 套餐商店 shows; only 上架 ones reach users. */
export default function CombosPage() {
  const page = useAdminList(storeQueries.adminCombos());
  const nextSort = Math.min(999, Math.max(0, ...(page.list.data ?? []).map((plan) => plan.sort)) + 1);

  const onToggle = (plan: ComboPlan, enabled: boolean) =>
    page.runOnRow(plan, async () => {
      await updateCombo(plan.id, { ...bodyOf(plan), enabled });
      toast(enabled ? `「${plan.name}」已上架` : `「${plan.name}」已下架`, 'success');
      await page.refresh();
    });

  const onDelete = (plan: ComboPlan) => page.remove(() => deleteCombo(plan.id));

  return (
    <AdminListPage<ComboPlan>
      title="套餐配置"
      addLabel="新建套餐"
      onAdd={() => page.dialog.show()}
      columns={columns({ togglingId: page.busyId, onToggle, onEdit: page.dialog.show, onDelete })}
      rows={page.list.data}
      loading={page.list.isPending}
      emptyText="暂无套餐，点击右上角新建"
    >
      <ComboPlanDialog
        open={page.dialog.open}
        plan={page.dialog.editing}
        nextSort={nextSort}
        onClose={page.dialog.close}
        onSaved={page.saved}
      />
    </AdminListPage>
  );
}
