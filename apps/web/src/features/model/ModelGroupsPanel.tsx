import { DeleteOutlined, EditOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import type { ArtModel } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { useEditDialog } from '../../common/use-edit-dialog';
import { deleteModel, deleteModelGroup, modelKeys, modelQueries, updateModel } from '../../services/model';
import { toast } from '../../services/notices';
import { ImportModelsDialog } from './ImportModelsDialog';
import { ModelDialog } from './ModelDialog';
import { ModelGroupDialog } from './ModelGroupDialog';
import { ModelTable } from './ModelTable';
import { SyncModelsButton } from './SyncModelsButton';
import './model-admin.css';
import { LoadFailed } from '../../common/LoadFailed';

/** 模型: the model groups (the draw page's model tabs) and the chosen group's models, disabled ones included. */
export function ModelGroupsPanel() {
  const queryClient = useQueryClient();
  const menu = useQuery(modelQueries.menu('all'));
  const [chosenId, setChosenId] = useState<string>();
  const groupDialog = useEditDialog<{ id: string; name: string }>();
  const modelDialog = useEditDialog<ArtModel>();
  const [importing, setImporting] = useState(false);
  const groups = menu.data ?? [];
  const group = groups.find((item) => item.id === chosenId) ?? groups[0];

  const refresh = () => queryClient.invalidateQueries({ queryKey: modelKeys.menus });
  const toggle = useMutation({
    mutationFn: ({ model, enabled }: { model: ArtModel; enabled: boolean }) =>
      updateModel(model.id, {
        groupId: group?.id ?? '',
        modelName: model.modelName,
        cover: model.cover,
        baseModel: model.baseModel,
        engine: model.engine,
        checkpoint: model.checkpoint,
        enabled,
        chinesePrompts: model.chinesePrompts,
        family: model.family,
        access: model.access,
      }),
    onSuccess: async (saved) => {
      toast(saved.enabled ? `已启用「${saved.modelName}」` : `已停用「${saved.modelName}」`, 'success');
      await refresh();
    },
  });
  const removeModel = useMutation({
    mutationFn: (model: ArtModel) => deleteModel(model.id),
    onSuccess: async (_data, model) => {
      toast(`已删除模型「${model.modelName}」`, 'success');
      await refresh();
    },
  });
  const removeGroup = useMutation({
    mutationFn: (groupId: string) => deleteModelGroup(groupId),
    onSuccess: async () => {
      toast('分组已删除', 'success');
      setChosenId(undefined);
      await refresh();
    },
  });

  if (menu.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (menu.isError) {
    return <LoadFailed title="模型加载失败" onRetry={() => menu.refetch()} />;
  }

  const showGroup = (groupId: string) => {
    setChosenId(groupId);
    groupDialog.close();
    setImporting(false);
  };

  return (
    <>
      <div className="hf-model-toolbar">
        <div className="hf-model-toolbar-actions">
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => groupDialog.show()}>
            新建分组
          </Button>
          {group && (
            <>
              <Button icon={<EditOutlined aria-hidden />} onClick={() => groupDialog.show(group)}>
                重命名分组
              </Button>
              <ConfirmAction
                title={`删除分组「${group.name}」？`}
                description="只能删除没有模型的分组"
                onConfirm={() => removeGroup.mutateAsync(group.id).catch(() => undefined)}
              >
                <Button danger icon={<DeleteOutlined aria-hidden />}>
                  删除分组
                </Button>
              </ConfirmAction>
            </>
          )}
        </div>
        <div className="hf-model-toolbar-actions">
          <SyncModelsButton />
          <Button icon={<ImportOutlined aria-hidden />} onClick={() => setImporting(true)} disabled={!group}>
            从后端导入
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => modelDialog.show()}
            disabled={!group}
          >
            新建模型
          </Button>
        </div>
      </div>
      {group ? (
        <>
          <Segmented<string>
            value={group.id}
            onChange={setChosenId}
            options={groups.map((item) => ({ value: item.id, label: `${item.name}（${item.models.length}）` }))}
            className="hf-segmented"
            aria-label="模型分组"
          />
          <ModelTable
            models={group.models}
            loading={menu.isFetching}
            switchingId={toggle.isPending ? (toggle.variables?.model.id ?? null) : null}
            onToggle={(model, enabled) => toggle.mutate({ model, enabled })}
            onEdit={modelDialog.show}
            onDelete={(model) => removeModel.mutateAsync(model).catch(() => undefined)}
          />
        </>
      ) : (
        <Empty description="还没有模型分组，先新建一个分组" />
      )}
      <ModelGroupDialog
        open={groupDialog.open}
        group={groupDialog.editing}
        onClose={groupDialog.close}
        onSaved={showGroup}
      />
      <ModelDialog
        open={modelDialog.open}
        groups={groups}
        groupId={group?.id}
        model={modelDialog.editing}
        onClose={modelDialog.close}
      />
      <ImportModelsDialog
        open={importing}
        groups={groups}
        groupId={group?.id}
        onClose={() => setImporting(false)}
        onImported={showGroup}
      />
    </>
  );
}
