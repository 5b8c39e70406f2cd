/**
 * Why an outgoing HTTP call failed, in words an admin or user can act on: Node and undici name the failure only by a
 * code (ERR_TLS_CERT_ALTNAME_INVALID, ECONNREFUSED …), which means nothing to most readers. The code stays in
 * brackets for the operator who searches for it.
 */
const EXPLANATIONS: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: '对方的 HTTPS 证书与域名不符（证书不是签发给这个地址的）',
  CERT_HAS_EXPIRED: '对方的 HTTPS 证书已过期',
  CERT_NOT_YET_VALID: '对方的 HTTPS 证书尚未生效',
  SELF_SIGNED_CERT_IN_CHAIN: '对方的 HTTPS 证书由自签名的机构签发，不受信任',
  DEPTH_ZERO_SELF_SIGNED_CERT: '对方使用自签名的 HTTPS 证书，不受信任',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证对方的 HTTPS 证书（证书链不完整）',
  UNABLE_TO_GET_ISSUER_CERT: '无法验证对方的 HTTPS 证书（找不到签发机构的证书）',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: '无法验证对方的 HTTPS 证书（签发机构不受信任或证书链不完整）',
  CERT_REVOKED: '对方的 HTTPS 证书已被吊销',
  ERR_SSL_WRONG_VERSION_NUMBER: 'HTTPS 握手失败（对方可能不支持 HTTPS，或端口不对）',
  EPROTO: 'HTTPS 握手失败（对方可能不支持 HTTPS，或端口不对）',
  ECONNREFUSED: '连接被拒绝，对方端口上没有服务在运行',
  ENOTFOUND: '找不到主机，请检查域名是否正确',
  EAI_AGAIN: '域名解析暂时失败，请稍后再试',
  ETIMEDOUT: '连接超时，对方没有应答',
  UND_ERR_CONNECT_TIMEOUT: '连接超时，对方没有应答',
  UND_ERR_HEADERS_TIMEOUT: '对方没有按时应答',
  UND_ERR_BODY_TIMEOUT: '对方没有按时发完应答',
  ECONNRESET: '连接被对方中断',
  EPIPE: '连接被对方中断',
  UND_ERR_SOCKET: '连接被对方中断',
  EHOSTUNREACH: '网络不可达',
  ENETUNREACH: '网络不可达',
};

/** The code of a failed call: fetch wraps it in `cause` (TypeError: fetch failed → Error { code }), at any depth. */
export function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    current = cause;
  }
  return undefined;
}

/** 对方的 HTTPS 证书已过期（CERT_HAS_EXPIRED）; 网络错误（SOME_CODE） for a code not listed; 网络错误 without one. */
export function explainNetworkError(error: unknown): string {
  const code = networkErrorCode(error);
  if (!code) return '网络错误';
  return `${EXPLANATIONS[code] ?? '网络错误'}（${code}）`;
}
