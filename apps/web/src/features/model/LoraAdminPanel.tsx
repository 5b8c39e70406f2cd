import { PlusOutlined } from '@ant-design/icons';
import type { LoraAdmin } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Skeleton } from 'antd';
import { LoadFailed } from '../../common/LoadFailed';
import { useEditDialog } from '../../common/use-edit-dialog';
import { deleteLora, loraKeys, loraQueries, updateLora } from '../../services/lora';
import { toast } from '../../services/notices';
import { styleGroupsOf } from '../draw/lora/lora-picks';
import { LoraDialog, loraBodyOf } from './LoraDialog';
import { LoraTable } from './LoraTable';
import { SyncModelsButton } from './SyncModelsButton';
import './model-admin.css';

/** LoRA 风格: every LoRA a sync found or an admin added, disabled ones included, and how each is offered. */
export function LoraAdminPanel() {
  const queryClient = useQueryClient();
  const loras = useQuery(loraQueries.admin());
  const dialog = useEditDialog<LoraAdmin>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: loraKeys.all });

  const toggle = useMutation({
    mutationFn: ({ lora, enabled }: { lora: LoraAdmin; enabled: boolean }) =>
      updateLora(lora.id, { ...loraBodyOf(lora), enabled }),
    onSuccess: async (saved) => {
      toast(saved.enabled ? `已启用「${saved.name}」` : `已停用「${saved.name}」`, 'success');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (lora: LoraAdmin) => deleteLora(lora.id),
    onSuccess: async (_data, lora) => {
      toast(`已删除风格「${lora.name}」`, 'success');
      await refresh();
    },
  });

  if (loras.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (loras.isError) return <LoadFailed title="LoRA 风格加载失败" onRetry={() => loras.refetch()} />;

  return (
    <>
      <div className="hf-model-toolbar">
        <span className="hf-muted">
          同步后新发现的 LoRA 为停用状态：填好名称、封面和触发词后启用，用户才能在创作页选择
        </span>
        <div className="hf-model-toolbar-actions">
          <SyncModelsButton />
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => dialog.show()}>
            新建风格
          </Button>
        </div>
      </div>
      <LoraTable
        loras={loras.data}
        loading={loras.isFetching}
        switchingId={toggle.isPending ? (toggle.variables?.lora.id ?? null) : null}
        onToggle={(lora, enabled) => toggle.mutate({ lora, enabled })}
        onEdit={dialog.show}
        onDelete={(lora) => remove.mutateAsync(lora).catch(() => undefined)}
      />
      <LoraDialog open={dialog.open} lora={dialog.editing} groups={styleGroupsOf(loras.data)} onClose={dialog.close} />
    </>
  );
}
