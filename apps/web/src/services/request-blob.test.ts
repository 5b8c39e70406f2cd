import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../stores/session';
import { bindNavigator } from './navigation';
import { bindNoticeApis } from './notices';
import { requestBlob } from './request';
import { RequestError } from './request-error';

const messages: unknown[] = [];
const navigations: string[] = [];
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  messages.length = 0;
  navigations.length = 0;
  bindNoticeApis({
    message: { open: (args: { content: unknown }) => messages.push(args.content) } as unknown as MessageInstance,
    notification: { error: () => undefined } as unknown as NotificationInstance,
  });
  bindNavigator((to) => navigations.push(to));
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  useSession.getState().signIn({ token: 't-zip', admin: 'false', permissions: ['user'] });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('requestBlob', () => {
  it('reads a binary answer with the bearer header and the attachment name', async () => {
    fetchMock.mockResolvedValue(
      new Response(new Uint8Array([80, 75, 3, 4]), {
        headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="w.zip"' },
      }),
    );
    const result = await requestBlob('/api/files/downloadZip', { params: { ids: 'a,b' } });
    expect(result.fileName).toBe('w.zip');
    expect(result.blob.size).toBe(4);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/files/downloadZip?ids=a%2Cb');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer t-zip');
  });

  it('shows an envelope answered instead, like any request, and rejects', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: -1, msg: '作品不存在或已删除', data: null }), {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
    await expect(requestBlob('/api/files/downloadZip', { params: { ids: 'x' } })).rejects.toBeInstanceOf(RequestError);
    expect(messages).toEqual(['作品不存在或已删除']);
  });

  it('ends the session on 401', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 401, msg: '登录已过期', data: null }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect(requestBlob('/api/files/downloadZip')).rejects.toMatchObject({ code: 401 });
    expect(useSession.getState().token).toBeNull();
    expect(navigations).toHaveLength(1);
  });
});
