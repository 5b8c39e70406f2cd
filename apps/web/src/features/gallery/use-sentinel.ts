import { type RefObject, useEffect, useRef } from 'react';

/**
 * Calls `onVisible` when the returned element is within 400 px of the viewport: infinite scroll without a
 * scroll listener. An observer reports only changes, so it is renewed whenever `loaded` changes; its first
 * report then asks again when one page did not fill the screen.
 */
export function useSentinel<T extends Element>(
  onVisible: () => void,
  enabled: boolean,
  loaded: number,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `loaded` renews the observer, see above.
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, loaded]);

  return ref;
}
