import { MSG, type PromptWord, type PromptWordBody, promptWordBodySchema } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Switch } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { toast } from '../../services/notices';
import { createPromptWord, promptKeys, updatePromptWord } from '../../services/prompt';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';

/** 编辑 a word, or 新增 one in a category. */
export type WordEditing = { word: PromptWord } | { categoryId: string };

interface PromptWordDialogProps {
  editing: WordEditing | null;
  onClose: () => void;
}

const { shape } = promptWordBodySchema;

/** 编辑 / 新增 a library word: its Chinese label, English prompt and the 常用 flag. */
export function PromptWordDialog({ editing, onClose }: PromptWordDialogProps) {
  const queryClient = useQueryClient();
  const { submitting, submit } = useSubmit();
  const word = editing && 'word' in editing ? editing.word : null;

  const onFinish = (values: PromptWordBody) =>
    submit(async () => {
      if (!editing) return;
      if ('word' in editing) await updatePromptWord(editing.word.id, values);
      else await createPromptWord({ ...values, categoryId: editing.categoryId });
      toast(MSG.set, 'success');
      await queryClient.invalidateQueries({ queryKey: promptKeys.all });
      onClose();
    });

  return (
    <FormDialog<PromptWordBody>
      open={editing !== null}
      title={word ? '编辑提示词' : '新增提示词'}
      width={460}
      onClose={onClose}
      submitLabel="保存"
      submitting={submitting}
      onFinish={onFinish}
      initialValues={word ? { label: word.label, text: word.text, featured: word.featured } : { featured: false }}
    >
      <Form.Item name="label" label="中文标签" rules={[zodRule(shape.label)]}>
        <Input placeholder="用户看到的中文，如 杰作" maxLength={20} autoFocus />
      </Form.Item>
      <Form.Item name="text" label="英文提示词" rules={[zodRule(shape.text)]}>
        <Input placeholder="发送给模型的英文，如 masterpiece" maxLength={200} />
      </Form.Item>
      <Form.Item name="featured" label="常用" valuePropName="checked" extra="常用词会出现在创作页词库的「常用」里">
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}
