import { useCallback, useState } from 'react';
import { isRequestError } from '../../services/request-error';

/**
 * `submitting` is true while `submit(task)` runs. A failure the request layer has already shown ends the task
 * quietly, so the form stays for another try; anything else is a bug or a case the caller must handle, and rethrows.
 */
export function useSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const submit = useCallback(async (task: () => Promise<void>) => {
    setSubmitting(true);
    try {
      await task();
    } catch (error) {
      if (!isRequestError(error) || !error.notified) throw error;
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { submitting, submit };
}
