import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';

interface MountWhenOpenedProps {
  /** Whether the dialog (or anything it holds) is asked for right now. */
  opened: boolean;
  /** Usually a component made with `lazyNamed`, so its code is fetched only when first opened. */
  children: ReactNode;
}

/**
 * Keeps a dialog's code out of the first load: it is mounted the first time it is asked for and then stays
 * mounted, so closing animations and state behave as if it had always been there.
 */
export function MountWhenOpened({ opened, children }: MountWhenOpenedProps) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}

/** `React.lazy` for a named export, so the module keeps its named exports. */
export function lazyNamed<K extends string, P>(loader: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await loader())[name] }));
}
