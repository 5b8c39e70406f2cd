import type { ComplianceSettings } from '@huafang/contracts';
import { withoutPngText } from '../../engines/png-text.js';
import { producedLabel, readAigcLabel, withAigcLabel } from './aigc-label.js';
import { withVisibleMark } from './visible-mark.js';

/**
 * A work's original as it leaves the service (download, zip, public gallery, shared link); the stored file stays
 * as painted. The implicit label is completed with the propagation elements (the service hands the copy out), or
 * written whole for a work painted before labels existed; the visible mark is drawn when the admin keeps it on.
 * `withoutText` drops every other text chunk first (the author hid the prompt): the label itself always stays.
 */
export async function labelledImage(
  png: Buffer,
  { workId, withoutText, settings }: { workId: string; withoutText: boolean; settings: ComplianceSettings },
): Promise<Buffer> {
  const label = {
    ...(readAigcLabel(png) ?? producedLabel(settings.producer, workId)),
    ContentPropagator: settings.propagator || settings.producer,
    PropagateID: workId,
  };
  const labelled = withAigcLabel(withoutText ? withoutPngText(png) : png, label);
  return settings.markEnabled ? withVisibleMark(labelled, settings.markText, settings.markPosition) : labelled;
}
