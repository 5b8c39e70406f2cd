import { z } from 'zod';

/** Chinese names of payload fields, so a validation message can name the field. */
export const FIELD_LABELS: Record<string, string> = {
  mobile: '手机号',
  like: '点赞',
  favorite: '收藏',
  english: '英文提示词',
  priceFen: '价格（分）',
  purchasable: '在线购买',
  validityDays: '有效期（天）',
  chinesePrompts: '读懂中文提示词',
  loraName: '后端 LoRA 名',
  weight: '权重',
  loraId: 'LoRA 风格',
  loras: 'LoRA 风格',
  family: '基础模型类型',
  triggerWords: '触发词',
  defaultWeight: '默认权重',
  minWeight: '最小权重',
  maxWeight: '最大权重',
  access: '可用范围',
  planIds: '套餐',
  styleGroup: '风格分组',
  planId: '套餐',
  channel: '支付方式',
  device: '设备',
  returnPath: '返回页面',
  openid: '微信 OpenID',
  state: '授权状态参数',
  user: '用户',
  orderId: '订单号',
  review: '待核查',
  amountFen: '金额（分）',
  date: '日期',
  code: '验证码',
  scene: '验证码用途',
  account: '账号',
  password: '密码',
  oldPassword: '原密码',
  newPassword: '新密码',
  nickname: '昵称',
  avatar: '头像',
  inviteCode: '邀请码',
  userId: '注册编号',
  token: '凭证',
  typeId: '问题类型',
  content: '内容',
  contact: '联系方式',
  title: '标题',
  codeType: '邀请码类型',
  maxUses: '可用次数',
  remark: '备注',
  current: '页码',
  cursor: '分页游标',
  w: '缩略图宽度',
  pageSize: '每页条数',
  type: '类型',
  file: '文件',
  action: '操作',
  allUsers: '所有用户',
  amount: '数量',
  apiKeyId: 'API 密钥',
  backendId: '后端',
  baseModel: '基础模型',
  baseUrl: '后端地址',
  category: '分类',
  categoryId: '分类',
  checked: '选中',
  checkpoint: '模型',
  checkpoints: '模型',
  children: '子项',
  controlnetModule: '控制网预处理',
  cover: '封面',
  credits: '算力点数',
  custom: '自定义',
  dateFrom: '开始日期',
  dateTo: '结束日期',
  days: '天数',
  decision: '处理结果',
  description: '说明',
  detail: '详情',
  disabled: '停用',
  enabled: '启用',
  endpointId: '接收地址',
  engine: '引擎',
  events: '事件',
  featured: '精选',
  featuredSort: '精选排序',
  features: '权益',
  fileId: '文件',
  formConfig: '表单配置',
  fromConfig: '来源配置',
  generateId: '生成记录',
  generateMode: '生成模式',
  groupId: '分组',
  groupName: '提示词',
  helpUrlFlag: '范围',
  hidden: '隐藏',
  hidePrompt: '隐藏提示词',
  icon: '图标',
  id: '编号',
  ids: '编号',
  imageWorkId: '图片作品',
  ip: 'IP 地址',
  keyId: 'API 密钥',
  keyword: '关键词',
  kind: '种类',
  label: '中文标签',
  max: '最大值',
  min: '最小值',
  modelName: '模型名称',
  modelTabList: '模型分类',
  models: '模型',
  moduleName: '模块名称',
  name: '名称',
  negativePromptGroup: '反向提示词',
  note: '备注',
  option: '选项',
  order: '排序方式',
  parameters: '生成参数',
  parentId: '上级目录',
  pin: '置顶',
  priceLabel: '价格说明',
  processorRes: '预处理分辨率',
  promptGroup: '提示词',
  promptText: '提示词文本',
  public: '公开',
  published: '已发布',
  reason: '原因',
  recommended: '推荐',
  scope: '范围',
  scopes: '权限范围',
  secret: '签名密钥',
  show: '显示',
  showClose: '可关闭',
  sort: '排序',
  status: '状态',
  step: '步长',
  stepIndex: '步骤序号',
  taskId: '任务',
  taskStepList: '任务步骤',
  templateId: '模板',
  text: '英文提示词',
  thresholdA: '阈值 A',
  thresholdB: '阈值 B',
  tzOffset: '时区偏移',
  url: '地址',
  useParentImage: '使用上一步图片',
  username: '用户名',
  value: '值',
  visibility: '可见范围',
  words: '敏感词',
  workId: '作品',
  // Route parameters the server declares itself: signed links (expiry, signature) and live previews.
  e: '链接有效期',
  s: '链接签名',
  key: '预览编号',
};

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

export const mobileSchema = z
  .string({ error: '请输入手机号' })
  .trim()
  .regex(MOBILE_PATTERN, '手机号格式不正确，请输入 11 位中国大陆手机号');

export const smsCodeSchema = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, '验证码为 6 位数字');

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;
/** Password rules; `label` names the field (密码, 新密码) in the messages. */
export const passwordOf = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .min(PASSWORD_MIN, `${label}长度至少 ${PASSWORD_MIN} 位`)
    .max(PASSWORD_MAX, `${label}长度不能超过 ${PASSWORD_MAX} 位`)
    .regex(/^[\x21-\x7e]+$/, `${label}只能包含字母、数字和英文符号，不能有空格`)
    .refine((v) => /[A-Za-z]/.test(v) && /\d/.test(v), `${label}必须同时包含字母和数字`);
export const passwordSchema = passwordOf('密码');

export const ACCOUNT_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,19}$/;
export const accountSchema = z
  .string({ error: '请输入账号' })
  .trim()
  .regex(ACCOUNT_PATTERN, '账号须为 4–20 位字母、数字或下划线，并以字母开头');

/**
 * Characters that are invisible or reorder the text around them: C0/C1 controls (NUL, line breaks, tabs), soft
 * hyphen, zero-width spaces and joiners, direction marks, embeddings, overrides and isolates (U+202E turns
 * 「画坊exe.jpg」 around), invisible operators, fillers, the BOM and the blank Braille pattern.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufeff\ufff9-\ufffb]/;
/** Text shown to other people holds only visible characters (a name of only zero-width spaces is refused too). */
export const isVisibleText = (text: string) => !INVISIBLE.test(text);

/**
 * Characters that show nothing by themselves: white space, controls and format characters, every default-ignorable
 * code point (variation selectors, the combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160,
 * U+3164 and U+FFA0, tags…), and the blank Braille pattern U+2800 (a symbol, not ignorable, yet blank).
 */
const BLANK = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u115f\u1160\u3164\uffa0\u2800]*$/u;
/** A name must show something: one visible character at least (\uffa0\uffa0\uffa0 reads as no name at all). */
export const hasVisibleCharacter = (text: string) => !BLANK.test(text);

/**
 * Every name shown in the product (templates, tasks and categories, models and their groups, backends, plans,
 * prompt library labels): trimmed, 1–`max` characters, visible characters only. Nicknames follow the same rule
 * with their own length limits.
 */
export const displayNameOf = (label: string, max: number) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .min(1, `请填写${label}`)
    .max(max, `${label}不能超过 ${max} 个字`)
    .refine(isVisibleText, `${label}不能包含控制字符或不可见字符`)
    .refine(hasVisibleCharacter, `${label}不能只由不可见字符组成`);

export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 16;
export const nicknameSchema = z
  .string({ error: '请输入昵称' })
  .trim()
  .min(NICKNAME_MIN, `昵称长度至少 ${NICKNAME_MIN} 个字符`)
  .max(NICKNAME_MAX, `昵称长度不能超过 ${NICKNAME_MAX} 个字符`)
  .refine(isVisibleText, '昵称不能包含控制字符或不可见字符')
  .refine(hasVisibleCharacter, '昵称不能只由不可见字符组成');

export const inviteCodeSchema = z
  .string({ error: '请输入邀请码' })
  .trim()
  .min(4, '邀请码格式不正确')
  .max(32, '邀请码格式不正确');

/** Opaque ids: random url-safe strings; `label` names the field in messages. */
export const idOf = (label: string) =>
  z
    .string({ error: `缺少${label}` })
    .trim()
    .min(1, `缺少${label}`)
    .max(64, `${label}格式不正确`);
