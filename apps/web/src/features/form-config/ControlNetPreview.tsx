import type { ControlnetPreviewBody } from '@huafang/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Image, Spin, Typography } from 'antd';
import { useDebounced } from '../../common/use-debounced';
import { generationQueries } from '../../services/generate';
import './parameter-form.css';

/** Dragging a threshold slider asks once it stops, not at every step. */
const PREVIEW_DEBOUNCE_MS = 400;

/** What the 预处理器 extracts from the reference image (POST /api/generate/task/controlnet/preview). */
export function ControlNetPreview({ body }: { body: ControlnetPreviewBody }) {
  const settled = useDebounced(JSON.stringify(body), PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    ...generationQueries.controlnetPreview(JSON.parse(settled) as ControlnetPreviewBody),
    placeholderData: keepPreviousData,
  });

  return (
    <figure className="hf-controlnet-preview" aria-label="预处理预览">
      {preview.data ? (
        <Image src={preview.data.url} width={96} height={96} alt="预处理预览" className="hf-image-field-thumb" />
      ) : preview.isError ? (
        <Typography.Text type="danger" className="hf-controlnet-preview-note">
          预览失败：{preview.error.message}
        </Typography.Text>
      ) : (
        <Spin size="small" tip="预处理中…">
          <div className="hf-controlnet-preview-note" />
        </Spin>
      )}
      <figcaption>
        <Typography.Text type="secondary">预处理预览</Typography.Text>
      </figcaption>
    </figure>
  );
}
