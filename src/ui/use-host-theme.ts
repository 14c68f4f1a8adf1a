import { useMemo, useSyncExternalStore } from 'react';
import { hostTheme, watchHostTheme, type HostTheme } from './host-theme.js';

const noSubscription = () => () => {};

/**
 * The theme to draw: `auto` becomes the host page's light or dark, live; other values pass
 * through. The server snapshot is `system` (CSS follows the OS), so hydration never mismatches.
 */
export function useHostTheme<T extends string>(
  theme: T | 'auto',
  darkSelector?: string,
): T | HostTheme | 'system' {
  const store = useMemo((): { subscribe(notify: () => void): () => void; get(): T | HostTheme } => {
    if (theme !== 'auto') return { subscribe: noSubscription, get: () => theme };
    // Cached: read per render (every streamed token), while the page changes rarely.
    let value: HostTheme | undefined;
    return {
      subscribe: (notify: () => void) => {
        const update = (next: HostTheme) => {
          value = next;
          notify();
        };
        const stop = watchHostTheme(document, update, darkSelector);
        // The page may have changed between the first render and this subscription.
        const now = hostTheme(document, darkSelector);
        if (now !== value) update(now);
        return stop;
      },
      get: () => (value ??= hostTheme(document, darkSelector)),
    };
  }, [theme, darkSelector]);
  return useSyncExternalStore<T | HostTheme | 'system'>(store.subscribe, store.get, () =>
    theme === 'auto' ? 'system' : theme,
  );
}
