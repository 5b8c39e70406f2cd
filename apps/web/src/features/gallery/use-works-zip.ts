import { MAX_WORKS_PER_ZIP } from '@huafang/contracts';
import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../services/attachment';
import { toast } from '../../services/notices';
import { downloadWorksZip } from '../../services/works';

const ZIP_LIMIT_TEXT = `一次最多打包下载 ${MAX_WORKS_PER_ZIP} 个作品，请分批下载`;

/** 打包下载: the server streams the originals as one zip, saved under the name it gives. */
export function useWorksZip() {
  const mutation = useMutation({
    mutationFn: async (ids: string[]) => {
      const { blob, fileName } = await downloadWorksZip(ids);
      saveBlob(blob, fileName ?? 'huafang-works.zip');
    },
  });

  function download(ids: string[]) {
    if (ids.length > MAX_WORKS_PER_ZIP) {
      toast(ZIP_LIMIT_TEXT, 'warning');
      return;
    }
    mutation.mutate(ids);
  }

  return { download, downloading: mutation.isPending };
}
