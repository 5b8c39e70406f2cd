import { Alert } from 'antd';
import './submit-error.css';

/** Why the last submit of a dialog failed, inside the dialog (role alert, so screen readers announce it). */
export function SubmitError({ error }: { error: string | null }) {
  if (!error) return null;
  return <Alert type="error" showIcon title={error} className="hf-submit-error" />;
}
