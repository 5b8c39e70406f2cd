import {
  MODERATION_DECISION_LABELS,
  MODERATION_NOTE_MAX,
  type ModerationDecisionKind,
  type ModerationQueueItem,
} from '@huafang/contracts';
import { Form, Input, Modal, Typography } from 'antd';
import { DialogActions } from '../../common/DialogActions';
import { toast } from '../../services/notices';
import { decideModeration } from '../../services/work-moderation';
import { useSubmit } from '../account/use-submit';
import { optionalText } from '../account/zod-rule';

export type PendingDecision = { entry: ModerationQueueItem; decision: ModerationDecisionKind };

/** What each decision does to the work, as the admin reads it before confirming. */
function consequence({ entry, decision }: PendingDecision): string {
  if (decision === 'remove') {
    return '作品将从灵感广场下架且不能再次发布，作者仍能在“我的作品”中看到。';
  }
  if (entry.work.publishPending) return '作者申请发布这个作品，通过后将立即发布到灵感广场。';
  return entry.work.public ? '作品保持公开，这些举报将标记为已处理。' : '作品保持私有，之后作者发布时不再送检。';
}

/** 通过 / 下架 with an optional note; the decision covers every open reason of the work. */
export function ModerationDecisionDialog({
  pending,
  onClose,
  onDecided,
}: {
  pending: PendingDecision | null;
  onClose: () => void;
  onDecided: () => void;
}) {
  const { submitting, submit, error } = useSubmit();
  const label = pending ? MODERATION_DECISION_LABELS[pending.decision] : '';

  // The lists refresh after `submit` ends: the dialog stays mounted for the next row, and a submit button still
  // loading while the queue reloads would swallow the admin's next 通过 or 下架.
  const onFinish = ({ note }: { note?: string }) =>
    submit(async () => {
      if (!pending) return;
      toast(
        await decideModeration({ id: pending.entry.work.id, decision: pending.decision, note: optionalText(note) }),
        'success',
      );
      onClose();
      onDecided();
    });

  return (
    <Modal
      open={pending !== null}
      title={pending ? `${label}这个作品？` : ''}
      onCancel={onClose}
      footer={null}
      width={460}
      destroyOnHidden
    >
      {pending && (
        <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Typography.Paragraph>{consequence(pending)}</Typography.Paragraph>
          <Form.Item name="note" label="备注（选填）">
            <Input.TextArea rows={2} maxLength={MODERATION_NOTE_MAX} showCount placeholder="例如：核实后不违规" />
          </Form.Item>
          <DialogActions submitLabel={label} submitting={submitting} onCancel={onClose} error={error} />
        </Form>
      )}
    </Modal>
  );
}
