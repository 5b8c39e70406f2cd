import { MSG, REQUEST_CACHE_TTL_MS } from '@huafang/contracts';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../query-client';
import { useSession } from '../stores/session';
import { helpKeys, helpQueries } from './help';
import { bindNavigator } from './navigation';
import { bindNoticeApis } from './notices';
import { http, requestEnvelope } from './request';
import { hasCode, RequestError } from './request-error';

const messages: { type?: string; content: unknown }[] = [];
const notices: { title: unknown; description: unknown; duration: unknown }[] = [];
const navigations: string[] = [];

function reply(status: number, body: unknown, statusText = '') {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, statusText });
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let testIndex = 0;

beforeEach(() => {
  vi.useFakeTimers();
  messages.length = 0;
  notices.length = 0;
  navigations.length = 0;
  bindNoticeApis({
    message: { open: (args: { type?: string; content: unknown }) => messages.push(args) } as unknown as MessageInstance,
    notification: {
      error: (args: { title: unknown; description: unknown; duration: unknown }) => notices.push(args),
    } as unknown as NotificationInstance,
  });
  bindNavigator((to) => navigations.push(to));
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  useSession.getState().signOut();
  // Fake timers restart near the real clock: jump well past the notice gates the previous test closed.
  vi.setSystemTime(Date.now() + 3_600_000 * (1 + testIndex++));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('request layer', () => {
  it('sends the stored bearer token and cookies, and resolves data and msg for code 0', async () => {
    useSession.getState().signIn({ token: 't-1', admin: 'false', permissions: ['user'] });
    fetchMock.mockResolvedValue(reply(200, { code: 0, msg: 'ok', data: { a: 1 } }));
    await expect(requestEnvelope('/api/x', { method: 'POST', body: { b: 2 } })).resolves.toEqual({
      data: { a: 1 },
      msg: 'ok',
    });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/x');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer t-1');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"b":2}');
  });

  it('toasts the message of code -1 once and rejects as already notified', async () => {
    fetchMock.mockResolvedValue(reply(200, { code: -1, msg: '验证码错误', data: null }));
    const error = await http.post('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).notified).toBe(true);
    expect(messages).toEqual([expect.objectContaining({ type: 'error', content: '验证码错误' })]);
    expect(notices).toHaveLength(0);
  });

  it('leaves every failure of a quiet call to the caller, unnotified', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { code: -1, msg: '请至少添加一个提示词', data: null }));
    fetchMock.mockResolvedValueOnce(reply(404, { code: 404, msg: '生成任务不存在', data: null }));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    for (const message of ['请至少添加一个提示词', '生成任务不存在', '网络异常']) {
      const error = await http.post('/api/x', undefined, { quiet: true }).catch((e: unknown) => e);
      expect(error).toMatchObject({ notified: false, message: expect.stringContaining(message) });
    }
    expect(messages).toHaveLength(0);
    expect(notices).toHaveLength(0);
  });

  it('leaves 405 to the caller with data.userId and no notice', async () => {
    fetchMock.mockResolvedValue(reply(200, { code: 405, msg: '未注册', data: { userId: 'u9' } }));
    const error = await http.post('/api/auth/mobile').catch((e: unknown) => e);
    expect(hasCode(error, 405)).toBe(true);
    expect((error as RequestError).data).toEqual({ userId: 'u9' });
    expect(messages).toHaveLength(0);
    expect(notices).toHaveLength(0);
  });

  it('shows one 错误提示 notification for HTTP errors, with the server message, and suppresses a second', async () => {
    fetchMock.mockImplementation(async () => reply(429, { code: -1, msg: '操作过于频繁，请稍后再试' }));
    await http.get('/api/a').catch(() => undefined);
    await http.get('/api/b').catch(() => undefined);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: MSG.errorTitle, description: '操作过于频繁，请稍后再试', duration: 2.5 });
    expect(messages).toHaveLength(0);
  });

  it('on 401 clears the stored keys and the session, then goes to /login', async () => {
    useSession.getState().signIn({ token: 't-2', admin: 'true', permissions: ['admin'] });
    fetchMock.mockResolvedValue(reply(401, { code: 401, msg: '登录已失效，请重新登录' }));
    await expect(http.get('/api/user/currentUser')).rejects.toBeInstanceOf(RequestError);
    const state = useSession.getState();
    expect(state.token).toBeNull();
    expect(state.isAdmin).toBeNull();
    expect(state.loginNotice).toBe('登录已失效，请重新登录');
    expect(navigations).toEqual(['/login']);
    expect(notices).toHaveLength(0);
  });

  it('asks the server on every call; a query keeps its answer while fresh, until login or logout', async () => {
    fetchMock.mockImplementation(async () => reply(200, { code: 0, msg: 'ok', data: [1] }));
    // Two dialogs asking at once share one request; asking again within the minute asks nothing.
    await Promise.all([queryClient.fetchQuery(helpQueries.types()), queryClient.fetchQuery(helpQueries.types())]);
    await queryClient.fetchQuery(helpQueries.types());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await http.get('/api/help/type');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(REQUEST_CACHE_TTL_MS);
    await queryClient.fetchQuery(helpQueries.types());
    expect(fetchMock).toHaveBeenCalledTimes(3);
    useSession.getState().signIn({ token: 't-3', admin: 'false', permissions: [] });
    expect(queryClient.getQueryData(helpKeys.types)).toBeUndefined();
  });

  it('reports a network failure as a notification', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(http.get('/api/x')).rejects.toMatchObject({ status: 0, notified: true });
    expect(notices[0]?.description).toContain('网络异常');
  });
});
