import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../services/notices';
import { useDraw } from '../../stores/draw';
import { INIT_IMAGE_FIELD, INIT_IMAGE_PARAM, readHandedFileId, showsField } from './init-image';

const NEEDS_IMAGE_TEMPLATE = '请先选择带「上传图片」的图生图模板';

/**
 * /draw?initImage=<fileId>: the Photoshop plugin hands over an uploaded document. The parameter leaves the
 * address at once (a reload must not import again); the image waits, for this visit, until the current
 * step has an image field, and then fills it. `waiting` tells the page to say so while it waits.
 */
export function useInitImageHandover() {
  const [searchParams, setSearchParams] = useSearchParams();
  const formConfig = useDraw((state) => state.formConfig);
  const [pending, setPending] = useState<{ fileId: string; hinted: boolean } | null>(null);
  const handed = searchParams.get(INIT_IMAGE_PARAM);

  useEffect(() => {
    if (handed === null) return;
    const fileId = readHandedFileId(handed);
    if (fileId) setPending({ fileId, hinted: false });
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete(INIT_IMAGE_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [handed, setSearchParams]);

  useEffect(() => {
    if (!pending) return;
    if (showsField(formConfig, INIT_IMAGE_FIELD)) {
      const { curParameters, setCurParameters } = useDraw.getState();
      setCurParameters({ ...curParameters, [INIT_IMAGE_FIELD]: pending.fileId });
      toast('已从 Photoshop 导入图片', 'success');
      setPending(null);
    } else if (!pending.hinted) {
      toast(NEEDS_IMAGE_TEMPLATE, 'info');
      setPending({ ...pending, hinted: true });
    }
  }, [pending, formConfig]);

  return { waiting: pending?.hinted === true, dismiss: () => setPending(null) };
}
