/** Business constants and limits of spec §9 and the verbatim messages of spec §8. */
export const REQUEST_TIMEOUT_MS = 600_000;
export const ERROR_NOTICE_SECONDS = 2.5;
export const DEFAULT_NOTICE_SECONDS = 4.5;
export const NOTICE_WIDTH_PX = 384;
export const REQUEST_CACHE_TTL_MS = 60_000;
export const TOAST_SECONDS = 3;
export const HISTORY_PAGE_SIZE = 15;
export const OMNIBUS_PAGE_SIZE = 10;
export const DEFAULT_HELP_URL_FLAG = '01';
export const DEFAULT_STEP_INDEX = 0;
export const DEFAULT_TASK_SELECT = 'noTask';
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** The five client-stored keys of spec §3, cleared together on 401 and logout. */
export const STORAGE_KEYS = {
  authorization: 'Authorization',
  isLoginSuccess: 'isLoginSuccess',
  userData: 'getUserData',
  isAdmin: 'isAdmin',
  permissions: 'permissions',
} as const;

/** Code type "01" of an invite: show the new-user guidance on /draw. */
export const GUIDANCE_CODE_TYPE = '01';

export const MSG = {
  loginSuccess: '登录成功',
  deleted: '删除成功',
  imported: '导入成功',
  set: '设置成功',
  bound: '绑定成功',
  helpSubmitted: '提交成功，我们会尽快响应',
  errorTitle: '错误提示',
  ok: 'ok',
  success: '操作成功',
  unauthorized: '登录已失效，请重新登录',
  unregistered: '账号未注册，请先完成注册',
  wrongCredentials: '账号或密码错误',
  routeNotFound: '接口不存在',
  recordNotFound: '记录不存在',
  serverError: '服务器错误',
  forbidden: '没有权限执行此操作',
  tooManyRequests: '操作过于频繁，请稍后再试',
  inviteInvalid: '邀请码无效',
} as const;

/** Status texts of spec §8, in Chinese, used by the 错误提示 notification. */
export const HTTP_STATUS_TEXT: Record<number, string> = {
  200: '服务器成功返回请求的数据。',
  201: '新建或修改数据成功。',
  202: '一个请求已经进入后台排队（异步任务）。',
  204: '删除数据成功。',
  400: '发出的请求有错误，服务器没有进行新建或修改数据的操作。',
  401: '用户没有权限（令牌、用户名、密码错误）或长时间未操作，请重新登录。',
  403: '用户得到授权，但是访问是被禁止的。',
  404: '发出的请求针对的是不存在的记录，服务器没有进行操作。',
  406: '请求的格式不可得。',
  410: '请求的资源被永久删除，且不会再得到的。',
  422: '当创建一个对象时，发生一个验证错误。',
  429: '请求过于频繁，请稍后再试。',
  500: '服务器发生错误，请检查服务器。',
  502: '网关错误。',
  503: '服务不可用，服务器暂时过载或维护。',
  504: '网关超时。',
};
