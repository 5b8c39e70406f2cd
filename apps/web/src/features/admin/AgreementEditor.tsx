import { type Agreement, type AgreementType, agreementBodySchema, MSG } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space } from 'antd';
import { saveAgreement } from '../../services/admin';
import { agreementKeys } from '../../services/app-config';
import { toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';
import { AGREEMENT_PATHS } from '../agreement/agreement-meta';

interface AgreementEditorProps {
  type: AgreementType;
  initial: Agreement;
}

/** Title and plain-text content of one agreement; the public page shows the text as written. */
export function AgreementEditor({ type, initial }: AgreementEditorProps) {
  const { submitting, submit } = useSubmit();
  const queryClient = useQueryClient();

  const onFinish = (values: Agreement) =>
    submit(async () => {
      const body = { title: values.title.trim(), content: values.content.trim() };
      await saveAgreement(type, body);
      queryClient.setQueryData(agreementKeys.agreement(type), body);
      toast(MSG.set, 'success');
    });

  return (
    <Form<Agreement> layout="vertical" onFinish={onFinish} initialValues={initial} requiredMark={false}>
      <Form.Item name="title" label="标题" rules={[zodRule(agreementBodySchema.shape.title)]}>
        <Input placeholder="例如：画坊隐私协议" maxLength={100} />
      </Form.Item>
      <Form.Item name="content" label="正文" rules={[zodRule(agreementBodySchema.shape.content)]}>
        <Input.TextArea autoSize={{ minRows: 14, maxRows: 30 }} placeholder="协议正文，换行会原样显示" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          保存
        </Button>
        <a href={AGREEMENT_PATHS[type]} target="_blank" rel="noopener">
          <Button>预览</Button>
        </a>
      </Space>
    </Form>
  );
}
