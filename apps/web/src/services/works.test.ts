import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshAfterDelete, worksKeys } from './works';

describe('refreshAfterDelete', () => {
  it('loads the list again but never asks for the deleted work whose detail dialog is still open', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const asked: string[] = [];
    const observe = (queryKey: readonly unknown[], name: string) => {
      const observer = new QueryObserver(client, {
        queryKey,
        queryFn: async () => {
          asked.push(name);
          return name;
        },
      });
      return observer.subscribe(() => undefined);
    };
    const stops = [
      observe(worksKeys.mineDetail('gone'), 'detail gone'),
      observe(worksKeys.mineDetail('kept'), 'detail kept'),
      observe(worksKeys.minePage({ current: 1, pageSize: 30 }), 'page'),
    ];
    await expect.poll(() => asked.length).toBe(3);
    asked.length = 0;

    await refreshAfterDelete(client, ['gone']);

    expect(asked.sort()).toEqual(['detail kept', 'page']);
    expect(client.getQueryData(worksKeys.mineDetail('gone'))).toBeUndefined();
    for (const stop of stops) stop();
    client.clear();
  });
});
