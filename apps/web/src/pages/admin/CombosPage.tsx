import { PlusOutlined } from '@ant-design/icons';
import { type ComboPlan, type ComboPlanBody, MSG } from '@huafang/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Space, Switch, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useEditDialog } from '../../common/use-edit-dialog';
import { PageHead } from '../../components/PageHead';
import { useSubmit } from '../../features/account/use-submit';
import { ComboPlanDialog } from '../../features/admin/ComboPlanDialog';
import { toast } from '../../services/notices';
import { deleteCombo, fetchAdminCombos, updateCombo } from '../../services/store';
import '../../features/admin/admin-pages.css';

const COMBOS_KEY = ['admin', 'combos'] as const;

interface RowActions {
  togglingId: string | null;
  onToggle: (plan: ComboPlan, enabled: boolean) => void;
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
    { title: '价格说明', dataIndex: 'priceLabel', width: 130 },
    { title: '算力', dataIndex: 'credits', width: 110, align: 'right', render: (credits: number) => `${credits} 点` },
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
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_value, plan) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onEdit(plan)}>
            编辑
          </Button>
          <Popconfirm
            title={`删除套餐「${plan.name}」？`}
            description="删除后用户在套餐商店中不再看到它"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete(plan)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}

/** 套餐配置: the plans 套餐商店 shows; only 上架 ones reach users. */
export default function CombosPage() {
  const queryClient = useQueryClient();
  const combos = useQuery({ queryKey: COMBOS_KEY, queryFn: fetchAdminCombos });
  const dialog = useEditDialog<ComboPlan>();
  const [togglingId, setTogglingId] = useState<string | null>(null);
  const { submit } = useSubmit();

  const refresh = () => queryClient.invalidateQueries({ queryKey: COMBOS_KEY });
  const nextSort = Math.min(999, Math.max(0, ...(combos.data ?? []).map((plan) => plan.sort)) + 1);

  async function onToggle(plan: ComboPlan, enabled: boolean) {
    setTogglingId(plan.id);
    try {
      await submit(async () => {
        await updateCombo(plan.id, { ...bodyOf(plan), enabled });
        toast(enabled ? `「${plan.name}」已上架` : `「${plan.name}」已下架`, 'success');
        await refresh();
      });
    } finally {
      setTogglingId(null);
    }
  }

  const onDelete = (plan: ComboPlan) =>
    submit(async () => {
      await deleteCombo(plan.id);
      toast(MSG.deleted, 'success');
      await refresh();
    });

  function onSaved() {
    dialog.close();
    void refresh();
  }

  return (
    <div className="hf-page">
      <PageHead title="套餐配置">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.show()}>
          新建套餐
        </Button>
      </PageHead>
      <div className="hf-panel">
        <Table<ComboPlan>
          rowKey="id"
          columns={columns({ togglingId, onToggle, onEdit: dialog.show, onDelete })}
          dataSource={combos.data}
          loading={combos.isPending}
          pagination={false}
          locale={{ emptyText: '暂无套餐，点击右上角新建' }}
        />
      </div>
      <ComboPlanDialog
        open={dialog.open}
        plan={dialog.editing}
        nextSort={nextSort}
        onClose={dialog.close}
        onSaved={onSaved}
      />
    </div>
  );
}
