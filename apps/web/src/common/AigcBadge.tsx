import { useQuery } from '@tanstack/react-query';
import { complianceQueries } from '../services/compliance';
import './aigc-badge.css';

/**
 * DEFAULT_COMPLIANCE_SETTINGS.markText, written out: importing it would bring the compliance schemas (zod calls the
 * bundler must keep) into the home page's first load.
 */
const DEFAULT_TEXT = 'AI生成';

/**
 * The AI生成 corner badge every work shows in the galleries (《人工智能生成合成内容标识办法》第三条: the explicit
 * label may sit in the interface). Thumbnails carry no drawn mark, so the badge is the label there. It sits in the
 * bottom-left corner of the nearest positioned box (`hf-aigc-frame` where the thumbnail has none), clear of the
 * selection check and the 已发布 tag at the top.
 */
export function AigcBadge() {
  const badge = useQuery(complianceQueries.badge());
  // The default text until the answer comes (or when it fails): a work is never shown unlabelled.
  const text = badge.data?.text ?? DEFAULT_TEXT;
  return (
    <span className="hf-aigc-badge" role="img" aria-label={text}>
      {text}
    </span>
  );
}
