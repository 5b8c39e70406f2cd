import { useLayoutEffect } from 'react';
import { useIsNarrow, useIsPhone } from './use-screen';

/**
 * Marks <html> with hf-narrow (below lg) and hf-phone (below md), so the stylesheet follows antd's breakpoint
 * tokens instead of repeating their pixel values in media queries; dialogs and drawers outside #root see it too.
 */
export function useScreenClasses(): void {
  const phone = useIsPhone();
  const narrow = useIsNarrow();
  useLayoutEffect(() => {
    const root = document.documentElement.classList;
    root.toggle('hf-phone', phone);
    root.toggle('hf-narrow', narrow);
  }, [phone, narrow]);
}
