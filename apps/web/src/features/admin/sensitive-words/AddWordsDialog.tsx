import { DEFAULT_SENSITIVE_CATEGORY, sensitiveCategorySchema } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Form, Input } from 'antd';
import { FormDialog } from '../../../common/FormDialog';
import { toast } from '../../../services/notices';
import { addSensitiveWords, sensitiveWordQueries } from '../../../services/sensitive-words';
import { useSubmit } from '../../account/use-submit';
import { zodRule } from '../../account/zod-rule';
import { addedText, categoryChoices, wordsOfText, wordsProblem } from './sensitive-word-text';

interface AddWordsValues {
  words: string;
  category: string;
}

interface AddWordsDialogProps {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}

/** 添加敏感词: one word a line into one category (an existing one, or a new one typed in). */
export function AddWordsDialog({ open, onClose, onAdded }: AddWordsDialogProps) {
  const categories = useQuery({ ...sensitiveWordQueries.categories(), enabled: open });
  const { submitting, submit, error } = useSubmit();

  const onFinish = (values: AddWordsValues) =>
    submit(async () => {
      const { data, msg } = await addSensitiveWords({
        words: wordsOfText(values.words),
        category: values.category.trim(),
      });
      toast(addedText(msg, data), 'success');
      onAdded();
    });

  return (
    <FormDialog<AddWordsValues>
      open={open}
      title="添加敏感词"
      width={480}
      onClose={onClose}
      submitLabel="添加"
      submitting={submitting}
      error={error}
      onFinish={onFinish}
      initialValues={{ category: DEFAULT_SENSITIVE_CATEGORY }}
    >
      <Form.Item
        name="words"
        label="敏感词"
        extra="每行一个；已在词库中的词会跳过（全角、繁体与空格不同也算同一个词）。"
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const problem = wordsProblem(value);
              if (problem) throw new Error(problem);
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} placeholder={'例如：\n虐杀'} autoFocus />
      </Form.Item>
      <Form.Item name="category" label="分类" rules={[zodRule(sensitiveCategorySchema)]}>
        <AutoComplete
          options={categoryChoices(categories.data ?? [], DEFAULT_SENSITIVE_CATEGORY)}
          placeholder="选择或输入分类"
          showSearch={{
            filterOption: (input, option) => String(option?.value ?? '').includes(input.trim()),
          }}
        />
      </Form.Item>
    </FormDialog>
  );
}
