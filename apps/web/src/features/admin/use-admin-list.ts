import { MSG } from '@huafang/contracts';
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useEditDialog } from '../../common/use-edit-dialog';
import { toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';

/**
 * The rules of an AdminListPage: the list, its create/edit dialog, a row action that spins its own button
 * (检测, 上架), and 删除; every change reads the list again. Failures were shown by the request layer.
 */
export function useAdminList<T extends { id: string }, TKey extends QueryKey>(
  options: UseQueryOptions<T[], Error, T[], TKey>,
) {
  const queryClient = useQueryClient();
  const list = useQuery(options);
  const dialog = useEditDialog<T>();
  const [busyId, setBusyId] = useState<string | null>(null);
  const { submit } = useSubmit();

  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });

  async function runOnRow(item: T, action: () => Promise<void>) {
    setBusyId(item.id);
    try {
      await submit(action);
    } finally {
      setBusyId(null);
    }
  }

  const remove = (deleteItem: () => Promise<unknown>) =>
    submit(async () => {
      await deleteItem();
      toast(MSG.deleted, 'success');
      await refresh();
    });

  function saved() {
    dialog.close();
    void refresh();
  }

  return { list, dialog, busyId, runOnRow, remove, saved, refresh, queryClient };
}
