import type { AdminOrderFilter } from '@huafang/contracts';
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../../services/attachment';
import { downloadOrdersCsv } from '../../../services/payments';

/** 导出 CSV: the server writes the matching orders; the file is saved under the name it gives. */
export function useOrderExport() {
  const mutation = useMutation({
    mutationFn: async (filter: AdminOrderFilter) => {
      const { blob, fileName } = await downloadOrdersCsv(filter);
      saveBlob(blob, fileName ?? 'orders.csv');
    },
  });
  return { exportCsv: (filter: AdminOrderFilter) => mutation.mutate(filter), exporting: mutation.isPending };
}
