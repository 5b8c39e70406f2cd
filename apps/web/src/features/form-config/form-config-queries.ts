import type { ControlnetPreviewBody } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { previewControlNet } from '../../services/generate';

/** The same image and settings give the same preview: it is asked for once. */
export function controlnetPreviewQuery(body: ControlnetPreviewBody) {
  return queryOptions({
    queryKey: ['generate', 'controlnetPreview', body] as const,
    queryFn: ({ signal }) => previewControlNet(body, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
