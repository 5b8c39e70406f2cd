import { FileTextOutlined } from '@ant-design/icons';
import {
  DEFAULT_SENSITIVE_CATEGORY,
  SENSITIVE_IMPORT_TEXT_MAX,
  SENSITIVE_WORD_IMPORT_MAX,
  sensitiveCategorySchema,
  sensitiveWordImportBodySchema,
} from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Form, Input, Modal, Typography } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { DialogActions } from '../../../common/DialogActions';
import { toast } from '../../../services/notices';
import { importSensitiveWords, sensitiveWordQueries } from '../../../services/sensitive-words';
import { useSubmit } from '../../account/use-submit';
import { optionalText, zodRule } from '../../account/zod-rule';
import { addedText, categoryChoices, decodeWordFile, wordsOfText } from './sensitive-word-text';

interface ImportValues {
  text: string;
  category?: string;
}

interface ImportWordsDialogProps {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}

/** A text file this big cannot hold SENSITIVE_IMPORT_TEXT_MAX characters of any encoding anyway. */
const FILE_BYTES_MAX = SENSITIVE_IMPORT_TEXT_MAX * 4;

/**
 * 导入敏感词: a list pasted in, or read from a text file (UTF-8 or GB18030) into the same box to look over first.
 * Lines `分类:词` name their category; the others take the one chosen here. The server checks every line and
 * refuses the whole list on a bad one (第 N 行：…), shown above the buttons.
 */
export function ImportWordsDialog({ open, onClose, onImported }: ImportWordsDialogProps) {
  const [form] = Form.useForm<ImportValues>();
  const categories = useQuery({ ...sensitiveWordQueries.categories(), enabled: open });
  const { submitting, submit, error } = useSubmit();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const text = Form.useWatch('text', form);
  const lineCount = wordsOfText(text).length;

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be chosen again after editing the box.
    event.target.value = '';
    if (!file) return;
    if (file.size > FILE_BYTES_MAX) {
      toast(`文件过大：导入内容不能超过 ${SENSITIVE_IMPORT_TEXT_MAX} 个字`, 'warning');
      return;
    }
    form.setFieldsValue({ text: decodeWordFile(await file.arrayBuffer()) });
    setFileName(file.name);
    await form.validateFields(['text']).catch(() => undefined);
  }

  const onFinish = (values: ImportValues) =>
    submit(async () => {
      const { data, msg } = await importSensitiveWords({
        text: values.text,
        category: optionalText(values.category),
      });
      toast(addedText(msg, data), 'success');
      onImported();
    });

  return (
    <Modal
      open={open}
      title="导入敏感词"
      onCancel={onClose}
      footer={null}
      width={560}
      destroyOnHidden
      afterOpenChange={(opened) => !opened && setFileName(null)}
    >
      <Typography.Paragraph type="secondary">
        每行一个词；写成“分类:词”的行归入该分类，其余的行归入下面选择的分类。已在词库中的词会跳过；任何一行有问题则整批不导入。一次最多{' '}
        {SENSITIVE_WORD_IMPORT_MAX} 个词。
      </Typography.Paragraph>
      <Form<ImportValues> form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="text"
          label="导入内容"
          validateFirst
          extra={
            <span className="hf-words-import-extra">
              <span>{fileName ? `已读取文件「${fileName}」，共 ${lineCount} 行` : `共 ${lineCount} 行`}</span>
              <Button size="small" icon={<FileTextOutlined />} onClick={() => fileInput.current?.click()}>
                从文件读取
              </Button>
            </span>
          }
          rules={[
            zodRule(sensitiveWordImportBodySchema.shape.text),
            {
              validator: async (_rule, value: string | undefined) => {
                if (wordsOfText(value).length === 0) throw new Error('请填写要导入的敏感词');
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 6, maxRows: 14 }}
            placeholder={'暴力:虐杀\n色情:裸聊\n血腥暴力'}
            autoFocus
          />
        </Form.Item>
        <input
          ref={fileInput}
          type="file"
          accept=".txt,.csv,text/plain"
          hidden
          aria-hidden
          tabIndex={-1}
          onChange={(event) => void readFile(event)}
        />
        <Form.Item
          name="category"
          label="默认分类"
          extra="没写分类的行归入此类"
          rules={[zodRule(sensitiveCategorySchema, { optional: true })]}
        >
          <AutoComplete
            allowClear
            options={categoryChoices(categories.data ?? [], DEFAULT_SENSITIVE_CATEGORY)}
            placeholder={`留空则为“${DEFAULT_SENSITIVE_CATEGORY}”`}
          />
        </Form.Item>
        <DialogActions submitLabel="导入" submitting={submitting} onCancel={onClose} error={error} />
      </Form>
    </Modal>
  );
}
