import { HELP_CONTENT_MAX, helpBodySchema } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { helpQueries, submitHelp } from '../../services/help';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { useSubmit } from './use-submit';
import { optionalText, zodRule } from './zod-rule';

interface HelpValues {
  typeId: string;
  content: string;
  contact?: string;
}

/** 帮助与反馈: the server's own reply (提交成功，我们会尽快响应) is what the user sees. */
export function HelpDialog() {
  const open = useSession((state) => state.dialogs.help);
  const closeDialog = useSession((state) => state.closeDialog);
  const { submitting, submit, error } = useSubmit();
  const types = useQuery({ ...helpQueries.types(), enabled: open });

  const onFinish = (values: HelpValues) =>
    submit(async () => {
      const msg = await submitHelp({
        typeId: values.typeId,
        content: values.content.trim(),
        contact: optionalText(values.contact),
      });
      toast(msg, 'success');
      closeDialog('help');
    });

  return (
    <AccountModal name="help" title="帮助与反馈" width={480} centered={false}>
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="typeId" label="问题类型" rules={[{ required: true, message: '请选择问题类型' }]}>
          <Select
            placeholder="请选择问题类型"
            loading={types.isLoading}
            options={(types.data ?? []).map((type) => ({ value: type.id, label: type.name }))}
            notFoundContent={types.isLoading ? '加载中…' : '暂无可选类型'}
          />
        </Form.Item>
        <Form.Item name="content" label="问题描述" rules={[zodRule(helpBodySchema.shape.content)]}>
          <Input.TextArea
            placeholder="请描述你遇到的问题或建议，至少 5 个字"
            rows={5}
            maxLength={HELP_CONTENT_MAX}
            showCount
            autoFocus
          />
        </Form.Item>
        <Form.Item
          name="contact"
          label="联系方式（选填）"
          rules={[zodRule(helpBodySchema.shape.contact, { optional: true })]}
        >
          <Input placeholder="手机号、邮箱或微信，方便我们联系你" maxLength={64} />
        </Form.Item>
        <FormSubmit label="提交" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
