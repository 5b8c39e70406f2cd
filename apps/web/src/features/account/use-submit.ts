import { useCallback, useState } from 'react';
import { isRequestError } from '../../services/request-error';

/**
 * `submitting` is true while `submit(task)` runs. A failure the request layer has already shown ends the task
 * quietly, so the form stays for another try, and its message stays in `error` for the dialog to show beside the
 * form: the toast may have been dropped behind another one (one at a time, spec §8) or gone before it was read.
 * Anything else is a bug or a case the caller must handle, and rethrows.
 */
export function useSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = useCallback(async (task: () => Promise<void>) => {
    setSubmitting(true);
    setError(null);
    try {
      await task();
    } catch (failure) {
      if (!isRequestError(failure) || !failure.notified) throw failure;
      setError(failure.message);
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { submitting, submit, error };
}
