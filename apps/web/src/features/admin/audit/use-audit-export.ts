import type { AuditFilter } from '@huafang/contracts';
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../../services/attachment';
import { downloadAuditCsv } from '../../../services/audit';

/** 导出 CSV: the server streams the matching entries; the file is saved under the name it gives. */
export function useAuditExport() {
  const mutation = useMutation({
    mutationFn: async (filter: AuditFilter) => {
      const { blob, fileName } = await downloadAuditCsv(filter);
      saveBlob(blob, fileName ?? 'audit-log.csv');
    },
  });
  return { exportCsv: (filter: AuditFilter) => mutation.mutate(filter), exporting: mutation.isPending };
}
