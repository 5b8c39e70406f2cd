import { PictureOutlined } from '@ant-design/icons';
import type { ArtModel } from '@huafang/contracts';
import { Image, Table, type TableColumnsType, Tag, Typography } from 'antd';

const ENGINE_LABELS: Record<ArtModel['engine'], string> = {
  builtin: '内置演示引擎',
  sdwebui: 'SD WebUI',
  comfyui: 'ComfyUI',
};

const COLUMNS: TableColumnsType<ArtModel> = [
  {
    title: '封面',
    dataIndex: 'cover',
    width: 80,
    render: (cover: string | null, model) =>
      cover ? (
        <Image src={cover} width={48} height={48} alt={model.modelName} className="hf-table-thumb" />
      ) : (
        <span className="hf-table-thumb hf-model-thumb-empty" role="img" aria-label="暂无封面">
          <PictureOutlined />
        </span>
      ),
  },
  { title: '模型名称', dataIndex: 'modelName' },
  { title: '基础模型', dataIndex: 'baseModel', width: 120 },
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
    title: '状态',
    dataIndex: 'enabled',
    width: 100,
    render: (enabled: boolean) => (enabled ? <Tag color="success">已启用</Tag> : <Tag>已停用</Tag>),
  },
];

export function ModelTable({ models, loading }: { models: ArtModel[]; loading: boolean }) {
  return (
    <Table<ArtModel>
      rowKey="id"
      columns={COLUMNS}
      dataSource={models}
      loading={loading}
      pagination={false}
      locale={{ emptyText: '这个分组下还没有模型' }}
    />
  );
}
