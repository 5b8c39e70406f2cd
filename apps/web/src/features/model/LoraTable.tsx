import { PictureOutlined } from '@ant-design/icons';
import type { LoraAdmin } from '@huafang/contracts';
import { Image, Switch, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { editDeleteColumn } from '../../common/edit-delete-column';
import { formatWeight } from '../draw/lora/lora-picks';
import { accessText } from './ModelTable';
import '../form-config/parameter-form.css';

interface LoraTableProps {
  loras: LoraAdmin[];
  loading: boolean;
  /** The id of the LoRA whose switch is saving. */
  switchingId: string | null;
  onToggle: (lora: LoraAdmin, enabled: boolean) => void;
  onEdit: (lora: LoraAdmin) => void;
  onDelete: (lora: LoraAdmin) => Promise<unknown>;
}

function columns({ switchingId, onToggle, onEdit, onDelete }: Omit<LoraTableProps, 'loras' | 'loading'>) {
  const list: TableColumnsType<LoraAdmin> = [
    {
      title: '封面',
      dataIndex: 'cover',
      width: 80,
      render: (cover: string | null, lora) =>
        cover ? (
          <Image src={cover} width={48} height={48} alt={lora.name} className="hf-table-thumb" />
        ) : (
          <span className="hf-table-thumb hf-model-thumb-empty" role="img" aria-label="暂无封面">
            <PictureOutlined aria-hidden />
          </span>
        ),
    },
    { title: '名称', dataIndex: 'name' },
    {
      title: '后端名',
      dataIndex: 'loraName',
      render: (loraName: string) => <Typography.Text code>{loraName}</Typography.Text>,
    },
    { title: '分组', dataIndex: 'styleGroup', width: 90 },
    {
      title: '基础模型类型',
      dataIndex: 'family',
      width: 120,
      render: (family: LoraAdmin['family']) => <Tag>{family}</Tag>,
    },
    {
      title: '触发词',
      dataIndex: 'triggerWords',
      render: (words: string[]) =>
        words.length > 0 ? (
          <span className="hf-lora-words">
            {words.map((word) => (
              <Tag key={word} variant="filled">
                {word}
              </Tag>
            ))}
          </span>
        ) : (
          <span className="hf-muted">无</span>
        ),
    },
    {
      title: '权重',
      key: 'weight',
      width: 110,
      render: (_value, lora) => (
        <span
          title={`默认 ${formatWeight(lora.defaultWeight)}，范围 ${formatWeight(lora.minWeight)}–${formatWeight(lora.maxWeight)}`}
        >
          {formatWeight(lora.defaultWeight)}
          <span className="hf-muted">
            {' '}
            ({formatWeight(lora.minWeight)}–{formatWeight(lora.maxWeight)})
          </span>
        </span>
      ),
    },
    {
      title: '可用后端',
      dataIndex: 'backends',
      render: (backends: string[]) =>
        backends.length > 0 ? backends.join('、') : <span className="hf-muted">没有后端报告</span>,
    },
    {
      title: '可用范围',
      dataIndex: 'access',
      width: 110,
      render: (access: LoraAdmin['access']) => accessText(access.planIds.length),
    },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 90,
      render: (enabled: boolean, lora) => (
        <Switch
          checked={enabled}
          loading={switchingId === lora.id}
          onChange={(checked) => onToggle(lora, checked)}
          aria-label={`启用「${lora.name}」`}
        />
      ),
    },
    editDeleteColumn(130, (lora) => ({
      onEdit: () => onEdit(lora),
      deleteTitle: `删除风格「${lora.name}」？`,
      deleteDescription: '用户将不能再选择它；已生成的作品不受影响，下次同步会把后端仍有的 LoRA 作为停用的新风格加回',
      onDelete: () => onDelete(lora),
      name: lora.name,
    })),
  ];
  return list;
}

/** 模型管理's LoRA list: where each runs, how it is offered, and the switch that offers or withdraws it. */
export function LoraTable({ loras, loading, ...actions }: LoraTableProps) {
  return (
    <Table<LoraAdmin>
      rowKey="id"
      columns={columns(actions)}
      dataSource={loras}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '还没有 LoRA 风格：点「同步模型」从后端读取，或「新建风格」手动添加' }}
    />
  );
}
