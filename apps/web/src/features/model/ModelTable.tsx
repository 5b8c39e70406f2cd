import { PictureOutlined } from '@ant-design/icons';
import type { ArtModel } from '@huafang/contracts';
import { Image, Switch, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { editDeleteColumn } from '../../common/edit-delete-column';
import { ENGINE_LABELS } from './engine-labels';
import '../form-config/parameter-form.css';

interface ModelTableProps {
  models: ArtModel[];
  loading: boolean;
  /** The id of the model whose switch is saving. */
  switchingId: string | null;
  onToggle: (model: ArtModel, enabled: boolean) => void;
  onEdit: (model: ArtModel) => void;
  onDelete: (model: ArtModel) => Promise<unknown>;
}

/** 可用范围 in a table cell: everyone, or how many plans may use it (the dialog names them). */
export function accessText(plans: number): string {
  return plans === 0 ? '所有用户' : `限 ${plans} 个套餐`;
}

function columns({ switchingId, onToggle, onEdit, onDelete }: Omit<ModelTableProps, 'models' | 'loading'>) {
  const list: TableColumnsType<ArtModel> = [
    {
      title: '封面',
      dataIndex: 'cover',
      width: 80,
      render: (cover: string | null, model) =>
        cover ? (
          <Image src={cover} width={48} height={48} alt={model.modelName} className="hf-table-thumb" />
        ) : (
          <span className="hf-table-thumb hf-model-thumb-empty" role="img" aria-label="暂无封面">
            <PictureOutlined aria-hidden />
          </span>
        ),
    },
    { title: '模型名称', dataIndex: 'modelName' },
    { title: '基础模型', dataIndex: 'baseModel', width: 120 },
    {
      title: '基础模型类型',
      dataIndex: 'family',
      width: 120,
      render: (family: ArtModel['family']) => <Tag>{family}</Tag>,
    },
    {
      title: '可用范围',
      dataIndex: 'access',
      width: 120,
      render: (access: ArtModel['access']) => accessText(access.planIds.length),
    },
    {
      title: '推理引擎',
      dataIndex: 'engine',
      width: 140,
      render: (engine: ArtModel['engine']) => ENGINE_LABELS[engine],
    },
    {
      title: '后端模型',
      dataIndex: 'checkpoint',
      render: (checkpoint: string) => <Typography.Text code>{checkpoint}</Typography.Text>,
    },
    {
      title: '可用后端',
      dataIndex: 'backends',
      render: (backends: ArtModel['backends']) =>
        backends?.length ? backends.join('、') : <span className="hf-muted">没有后端提供</span>,
    },
    {
      title: '提示词',
      dataIndex: 'chinesePrompts',
      width: 110,
      render: (chinese: boolean) => (chinese ? <Tag color="blue">中文原样</Tag> : <Tag>译成英文</Tag>),
    },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 90,
      render: (enabled: boolean, model) => (
        <Switch
          checked={enabled}
          loading={switchingId === model.id}
          onChange={(checked) => onToggle(model, checked)}
          aria-label={`启用「${model.modelName}」`}
        />
      ),
    },
    editDeleteColumn(130, (model) => ({
      onEdit: () => onEdit(model),
      deleteTitle: `删除模型「${model.modelName}」？`,
      deleteDescription: '已使用该模型的模板需要另选模型',
      onDelete: () => onDelete(model),
      name: model.modelName,
    })),
  ];
  return list;
}

/** The models of one group, with the switch that offers or withdraws each on the draw page. */
export function ModelTable({ models, loading, ...actions }: ModelTableProps) {
  return (
    <Table<ArtModel>
      rowKey="id"
      columns={columns(actions)}
      dataSource={models}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '这个分组下还没有模型' }}
    />
  );
}
