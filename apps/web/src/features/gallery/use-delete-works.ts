import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { toast } from '../../services/notices';
import { deleteWorks, refreshAfterDelete } from '../../services/works';

/** 删除 with a confirmation first; the server's own message (删除成功) is shown as it is. */
export function useDeleteWorks() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();

  return (ids: string[], onDeleted: (ids: string[]) => void) => {
    modal.confirm({
      title: ids.length === 1 ? '删除这个作品？' : `删除选中的 ${ids.length} 个作品？`,
      content: '删除后无法恢复；已发布到灵感广场的作品也会一并下架。',
      okText: '删除',
      okType: 'danger',
      cancelText: '取消',
      onOk: async () => {
        try {
          const msg = await deleteWorks(ids);
          toast(msg, 'success');
          onDeleted(ids);
          await refreshAfterDelete(queryClient, ids);
        } catch {
          // The request layer has shown why; the dialog closes and the list stays as it was.
        }
      },
    });
  };
}
