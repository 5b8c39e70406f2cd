import { Button } from 'antd';
import { SubmitError } from './SubmitError';

interface FormSubmitProps {
  label: string;
  submitting: boolean;
  /** Why the last submit failed, shown above the button. */
  error: string | null;
  /** An action that gives something up (解绑): the button is red. */
  danger?: boolean;
}

/** The foot of a one-button form (the account dialogs): the last submit's failure, then the full-width submit. */
export function FormSubmit({ label, submitting, error, danger }: FormSubmitProps) {
  return (
    <>
      <SubmitError error={error} />
      <Button type="primary" danger={danger} htmlType="submit" block loading={submitting}>
        {label}
      </Button>
    </>
  );
}
