import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { explainNetworkError, networkErrorCode } from '../../src/platform/network-error.js';

/** What fetch (undici) throws: TypeError('fetch failed') with the system or TLS error as its cause. */
const fetchFailed = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

describe('network errors in Chinese', () => {
  it.each([
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      '对方的 HTTPS 证书与域名不符（证书不是签发给这个地址的）（ERR_TLS_CERT_ALTNAME_INVALID）',
    ],
    ['CERT_HAS_EXPIRED', '对方的 HTTPS 证书已过期（CERT_HAS_EXPIRED）'],
    ['SELF_SIGNED_CERT_IN_CHAIN', '对方的 HTTPS 证书由自签名的机构签发，不受信任（SELF_SIGNED_CERT_IN_CHAIN）'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', '无法验证对方的 HTTPS 证书（证书链不完整）（UNABLE_TO_VERIFY_LEAF_SIGNATURE）'],
    ['ECONNREFUSED', '连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）'],
    ['ENOTFOUND', '找不到主机，请检查域名是否正确（ENOTFOUND）'],
    ['ETIMEDOUT', '连接超时，对方没有应答（ETIMEDOUT）'],
    ['ECONNRESET', '连接被对方中断（ECONNRESET）'],
    ['EAI_AGAIN', '域名解析暂时失败，请稍后再试（EAI_AGAIN）'],
    ['UND_ERR_CONNECT_TIMEOUT', '连接超时，对方没有应答（UND_ERR_CONNECT_TIMEOUT）'],
  ])('explains %s and keeps the code for the operator', (code, text) => {
    expect(explainNetworkError(fetchFailed(code))).toBe(text);
  });

  it('finds the code at any depth, says 网络错误 for an unknown code or none', () => {
    const deep = new Error('outer', { cause: new Error('middle', { cause: fetchFailed('ECONNREFUSED') }) });
    expect(networkErrorCode(deep)).toBe('ECONNREFUSED');
    expect(explainNetworkError(fetchFailed('E_SOMETHING_NEW'))).toBe('网络错误（E_SOMETHING_NEW）');
    expect(explainNetworkError(new Error('boom'))).toBe('网络错误');
    expect(explainNetworkError('not an error')).toBe('网络错误');
  });

  it('explains what a real fetch throws: a local port nobody listens on', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    await once(server, 'close');
    const refused = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(explainNetworkError(refused)).toBe('连接被拒绝，对方端口上没有服务在运行（ECONNREFUSED）');
  });
});
