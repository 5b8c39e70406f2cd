import { type ComplianceSettings, complianceSettingsSchema, LABEL_CODE_MAX, MARK_TEXT_MAX } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Radio } from 'antd';
import { SubmitError } from '../../common/SubmitError';
import { complianceKeys, saveComplianceSettings } from '../../services/compliance';
import { toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';
import { MARK_OFF_WARNING, MARK_POSITION_OPTIONS } from './compliance-form';
import { MarkEnabledSwitch } from './MarkEnabledSwitch';

const { shape } = complianceSettingsSchema;

/** The fields of 合规设置, checked with the server's own rules; Enter in a text field saves. */
export function ComplianceForm({ initial }: { initial: ComplianceSettings }) {
  const [form] = Form.useForm<ComplianceSettings>();
  const markEnabled = Form.useWatch('markEnabled', form);
  const { submitting, submit, error } = useSubmit();
  const queryClient = useQueryClient();

  const onFinish = (values: ComplianceSettings) =>
    submit(async () => {
      // The schema trims as the server does, so the form shows what was stored.
      const { data, msg } = await saveComplianceSettings(complianceSettingsSchema.parse(values));
      form.setFieldsValue(data);
      // This visit's badges take the new text at once; other visitors read it on their next visit.
      queryClient.setQueryData(complianceKeys.badge, { text: data.markText });
      toast(msg, 'success');
    });

  return (
    <Form<ComplianceSettings>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={onFinish}
      requiredMark={false}
      scrollToFirstError
      className="hf-compliance-form"
    >
      <Form.Item
        name="producer"
        label="服务提供者名称或编码"
        extra="写入每张图片的隐式标识，默认为部署时设置的 AIGC_PRODUCER，改成别的值保存后以这里为准。只能用英文字母、数字和英文符号，建议填统一社会信用代码或备案编号。"
        rules={[zodRule(shape.producer)]}
      >
        <Input maxLength={LABEL_CODE_MAX} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="propagator"
        label="传播服务提供者名称或编码（选填）"
        extra="图片下载、分享或在灵感广场公开时写入隐式标识；留空则与服务提供者相同。"
        rules={[zodRule(shape.propagator)]}
      >
        <Input maxLength={LABEL_CODE_MAX} placeholder="留空则与服务提供者相同" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="markText"
        label="显式标识文字"
        extra={`画在原图角上，也是站内作品角标的文字；须同时包含“AI”或“人工智能”与“生成”或“合成”，最多 ${MARK_TEXT_MAX} 个字。`}
        rules={[zodRule(shape.markText)]}
      >
        {/* No maxLength: a longer text is refused with the rule's message instead of being cut off silently. */}
        <Input placeholder="例如：AI生成" autoComplete="off" />
      </Form.Item>
      <Form.Item name="markPosition" label="显式标识位置" rules={[zodRule(shape.markPosition)]}>
        <Radio.Group options={MARK_POSITION_OPTIONS} className="hf-compliance-corners" />
      </Form.Item>
      <Form.Item
        name="markEnabled"
        label="显式标识"
        valuePropName="checked"
        extra="开启时，所有流出的原图（下载、打包下载、分享链接、灵感广场原图）都画上标识文字。"
      >
        <MarkEnabledSwitch />
      </Form.Item>
      {markEnabled === false && (
        <Alert
          type="warning"
          showIcon
          title="显式标识已关闭"
          description={MARK_OFF_WARNING}
          className="hf-compliance-off"
        />
      )}
      <SubmitError error={error} />
      <Button type="primary" htmlType="submit" loading={submitting}>
        保存
      </Button>
    </Form>
  );
}
