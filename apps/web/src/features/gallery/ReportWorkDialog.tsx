import {
  WORK_REPORT_DETAIL_MAX,
  WORK_REPORT_REASON_LABELS,
  WORK_REPORT_REASONS,
  type WorkReportReason,
  workReportBodySchema,
} from '@huafang/contracts';
import { Form, Input, Radio } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { toast } from '../../services/notices';
import { reportWork } from '../../services/work-moderation';
import { useSubmit } from '../account/use-submit';
import { optionalText, zodRule } from '../account/zod-rule';

interface ReportWorkDialogProps {
  /** The work to report; null when closed. */
  workId: string | null;
  onClose: () => void;
}

type ReportValues = { reason: WorkReportReason; detail?: string };

const { shape } = workReportBodySchema;

/** 举报: a reason from the list and, for 其他, a few words; once per user and work (the server says so). */
export function ReportWorkDialog({ workId, onClose }: ReportWorkDialogProps) {
  const { submitting, submit, error } = useSubmit();
  const [form] = Form.useForm<ReportValues>();
  const reason = Form.useWatch('reason', form);

  const onFinish = (values: ReportValues) =>
    submit(async () => {
      if (!workId) return;
      toast(await reportWork({ id: workId, reason: values.reason, detail: optionalText(values.detail) }), 'success');
      onClose();
    });

  return (
    <FormDialog<ReportValues>
      open={workId !== null}
      title="举报作品"
      width={480}
      onClose={onClose}
      submitLabel="提交举报"
      submitting={submitting}
      error={error}
      form={form}
      onFinish={onFinish}
    >
      <Form.Item name="reason" label="举报原因" rules={[zodRule(shape.reason)]}>
        <Radio.Group className="hf-report-reasons">
          {WORK_REPORT_REASONS.map((value) => (
            <Radio key={value} value={value}>
              {WORK_REPORT_REASON_LABELS[value]}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item
        name="detail"
        label={reason === 'other' ? '补充说明' : '补充说明（选填）'}
        rules={[
          zodRule(shape.detail, { optional: true }),
          {
            required: reason === 'other',
            whitespace: true,
            message: '选择“其他”时请说明举报原因',
          },
        ]}
      >
        <Input.TextArea
          rows={3}
          maxLength={WORK_REPORT_DETAIL_MAX}
          showCount
          placeholder="请描述作品的问题，便于管理员核实"
        />
      </Form.Item>
    </FormDialog>
  );
}
