import { CheckCircleFilled, CloseCircleFilled, SyncOutlined } from '@ant-design/icons';
import type { ModelSyncResult } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { adminKeys } from '../../services/admin';
import { loraKeys, syncModels } from '../../services/lora';
import { modelKeys } from '../../services/model';
import { syncHeadline, syncLines } from './sync-summary';

/**
 * 同步模型: reads what every enabled backend has now (checkpoints, LoRAs, VAEs) and shows it per backend; LoRAs
 * seen for the first time join the LoRA list disabled.
 */
export function SyncModelsButton() {
  const queryClient = useQueryClient();
  const [result, setResult] = useState<ModelSyncResult | null>(null);
  const sync = useMutation({
    mutationFn: syncModels,
    onSuccess: async (answer) => {
      setResult(answer);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: loraKeys.all }),
        queryClient.invalidateQueries({ queryKey: modelKeys.menus }),
        queryClient.invalidateQueries({ queryKey: adminKeys.backends }),
      ]);
    },
  });
  return (
    <>
      <Button icon={<SyncOutlined aria-hidden />} onClick={() => sync.mutate()} loading={sync.isPending}>
        同步模型
      </Button>
      <Modal
        open={result !== null}
        title="同步结果"
        onCancel={() => setResult(null)}
        footer={
          <Button type="primary" onClick={() => setResult(null)}>
            知道了
          </Button>
        }
      >
        {result && (
          <>
            <p>{syncHeadline(result)}</p>
            <ul className="hf-sync-lines" aria-label="各后端结果">
              {syncLines(result).map((line) => (
                <li key={line.backendId} className={line.ok ? undefined : 'hf-sync-failed'}>
                  {line.ok ? (
                    <CheckCircleFilled className="hf-sync-ok-icon" aria-hidden />
                  ) : (
                    <CloseCircleFilled className="hf-sync-failed-icon" aria-hidden />
                  )}
                  <span>{line.text}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Modal>
    </>
  );
}
