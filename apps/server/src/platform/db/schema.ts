import type { CreditReason, CreditSourceType } from '@huafang/contracts';
import type { Generated } from 'kysely';

/**
 * Table types shared by SQLite and PostgreSQL. Timestamps are ISO-8601 UTC text and flags are 0/1
 * integers so one set of queries and migrations serves both dialects.
 */
export interface UserTable {
  id: string;
  account: string | null;
  mobile: string | null;
  password_hash: string | null;
  nickname: string | null;
  avatar_file_id: string | null;
  is_admin: number;
  invite_code_id: string | null;
  code_type: string | null;
  credits: number;
  disabled: number;
  /** When the user closed the optional invite step; null while it may still be offered after login. */
  invite_skipped_at: string | null;
  /** When the account name was changed; it may change only once. */
  account_renamed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionTable {
  id: string;
  user_id: string;
  token_hash: string;
  /** 'access' for bearer tokens, 'reset' for the short-lived password-reset token. */
  kind: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export interface RegistrationTable {
  id: string;
  mobile: string | null;
  account: string | null;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}

export interface SmsCodeTable {
  id: string;
  mobile: string;
  scene: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** When a code last went to a mobile: the resend interval runs from here (claimed atomically, see 0015). */
export interface SmsSendSlotTable {
  mobile: string;
  sent_at: string;
}

export interface InviteCodeTable {
  id: string;
  code: string;
  code_type: string;
  max_uses: number;
  used_count: number;
  remark: string | null;
  created_by: string | null;
  created_at: string;
}

export interface FileTable {
  id: string;
  owner_id: string;
  mime: string;
  width: number;
  height: number;
  size: number;
  storage_key: string;
  created_at: string;
}

export interface HelpTypeTable {
  id: string;
  name: string;
  sort: number;
}

export interface HelpRequestTable {
  id: string;
  user_id: string;
  type_id: string;
  content: string;
  contact: string | null;
  created_at: string;
}

export interface AppConfigTable {
  key: string;
  title: string;
  content: string;
  updated_at: string;
}

export interface TaskNodeTable {
  id: string;
  parent_id: string | null;
  /** 'category' (top level) or 'task'. */
  kind: string;
  name: string;
  icon: string | null;
  cover: string | null;
  description: string;
  published: number;
  sort: number;
  /** Null for official content; the user's id on a copy made with copy_to_mine. */
  owner_id: string | null;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TemplateTable {
  id: string;
  task_id: string;
  name: string;
  cover: string | null;
  description: string;
  /** 'draft' or 'published'. */
  status: string;
  visibility: string;
  version: number;
  sort: number;
  owner_id: string | null;
  /** What users see: JSON of the template as last published (null until then); drafts never touch it. */
  published_json: string | null;
  /** 1 when an admin shows it among the home page's 精选模板. */
  featured: Generated<number>;
  /** Position among the featured templates, smallest first. */
  featured_sort: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface TemplateStepTable {
  id: string;
  template_id: string;
  step_index: number;
  name: string;
  generate_mode: string;
  use_parent_image: number;
  /** JSON texts: prompt groups, parameters and form config of the step. */
  prompt_group: string;
  negative_prompt_group: string;
  parameters: string;
  form_config: string;
}

export interface ModelGroupTable {
  id: string;
  name: string;
  sort: number;
}

export interface ModelTable {
  id: string;
  group_id: string;
  model_name: string;
  cover: string | null;
  base_model: string;
  engine: string;
  checkpoint: string;
  enabled: number;
  sort: number;
  /** 1: the model reads Chinese prompts as written; 0: they reach it translated to English. */
  chinese_prompts: Generated<number>;
  /** 底模 family (MODEL_FAMILIES). */
  family: Generated<string>;
  /** JSON AccessRule: `{planIds}`, empty for everyone. */
  access: Generated<string>;
  /** Short hash from the backend's list, for PNG info. */
  hash: Generated<string | null>;
}

export interface LoraTable {
  id: string;
  name: string;
  lora_name: string;
  engine: string;
  style_group: string;
  cover: string | null;
  description: string;
  family: string;
  /** JSON string array. */
  trigger_words: string;
  default_weight: number;
  min_weight: number;
  max_weight: number;
  enabled: number;
  sort: number;
  /** JSON AccessRule. */
  access: string;
  hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface BackendAssetTable {
  backend_id: string;
  /** checkpoint | lora | vae */
  kind: string;
  title: string;
  name: string;
  hash: string | null;
  synced_at: string;
}

export interface BackendSyncTable {
  backend_id: string;
  synced_at: string;
}

export interface PromptCategoryTable {
  id: string;
  /** 'positive' or 'negative'. */
  variant: string;
  parent_id: string | null;
  name: string;
  sort: number;
}

export interface PromptWordTable {
  id: string;
  category_id: string;
  variant: string;
  label: string;
  text: string;
  featured: number;
  sort: number;
}

export interface PublishedStepTable {
  step_id: string;
  template_id: string;
}

export interface GenerationTable {
  id: string;
  user_id: string;
  /** Null for 自由创作 (/chuangyi). */
  template_id: string | null;
  template_name: string;
  /** The current job's status, mirrored for the user's unfinished-generation lookup. */
  status: string;
  current_job_id: string;
  job_count: number;
  created_at: string;
  updated_at: string;
}

/** One step run of a generation: the embedded queue's persisted row. */
export interface GenerationJobTable {
  id: string;
  generation_id: string;
  user_id: string;
  /** 1-based position of this run in its generation (currentStepNum). */
  step_num: number;
  step_index: number;
  template_step_id: string | null;
  mode: string;
  /** queued | running | succeeded | failed | interrupted. */
  status: string;
  /** JSON of the validated job (see generate/job-payload.ts). */
  payload: string;
  prompt_group: string;
  negative_prompt_group: string;
  /** Credits reserved at submit. */
  cost: number;
  image_count: number;
  /** Images stored so far. */
  produced: number;
  /** Credits given back (interrupt, failure). */
  refunded: number;
  backend_id: string | null;
  attempts: number;
  message: string | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Scale-out mode: when the job left its user's backlog for BullMQ (null while in the backlog). */
  handed_at: string | null;
}

export interface WorkTable {
  id: string;
  user_id: string;
  generation_id: string;
  job_id: string;
  template_id: string | null;
  template_name: string;
  template_step_id: string | null;
  step_index: number;
  mode: string;
  prompt: string;
  negative_prompt: string;
  /** The prompts as written when the engine read them translated (prompt, negative_prompt); null otherwise. */
  source_prompt: string | null;
  source_negative_prompt: string | null;
  prompt_group: string;
  negative_prompt_group: string;
  parameters: string;
  /** bigint: seeds reach 2^32 - 1, past PostgreSQL's integer. */
  seed: number | string;
  width: number;
  height: number;
  /** The backend's name at the time it painted the work. */
  backend: string;
  image_key: string;
  thumb_key: string;
  public: Generated<number>;
  views: Generated<number>;
  created_at: string;
  /** The author hid prompts and parameters from the public gallery. */
  hide_prompt: Generated<number>;
  published_at: string | null;
  /** Hidden from the public gallery by an admin (作品审核). */
  hidden: Generated<number>;
  /** 内容审核: none, approved (an admin passed it) or removed (下架: it cannot be published again). */
  moderation: Generated<string>;
  /** The author asked to publish it and the provider flagged it: an admin's 通过 publishes it. */
  publish_pending: Generated<number>;
  /** 点赞 and 收藏 counts, kept with the rows of work_likes and work_favorites. */
  likes: Generated<number>;
  favorites: Generated<number>;
  /** 热门's order (features/works/hot-score.ts); set when the work is published and whenever its engagement changes. */
  hot_score: Generated<number>;
}

/** How many works a user has, kept by triggers on works (migration 0024): 我的作品's total. */
export interface WorkCountTable {
  user_id: string;
  works: number;
}

/** How many works a gallery lists, kept by triggers on works (migration 0025): 'omnibus', 灵感广场's total. */
export interface GalleryCountTable {
  name: string;
  works: number;
}

/** One user's 点赞 (work_likes) or 收藏 (work_favorites) of a work. */
export interface WorkReactionTable {
  work_id: string;
  user_id: string;
  created_at: string;
}

/** What a user is told: a work of theirs taken down (kind work_removed / work_hidden), with the reason. */
export interface NoticeTable {
  id: string;
  user_id: string;
  kind: string;
  work_id: string | null;
  title: string;
  body: string;
  read_at: string | null;
  created_at: string;
}

export interface PromptHistoryTable {
  id: string;
  user_id: string;
  generation_id: string;
  prompt_group: string;
  negative_prompt_group: string;
  pin: number;
  created_at: string;
  /** promptHistoryKey of the groups: unique per user, so the same words are one entry. */
  content_key: string | null;
}

export interface BackendTable {
  id: string;
  name: string;
  kind: string;
  base_url: string;
  username: string | null;
  /** A1111 password or the token of the proxy in front of ComfyUI. */
  secret: string | null;
  /** JSON list of checkpoint titles; empty = every model of its kind. */
  models: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface ComboPlanTable {
  id: string;
  name: string;
  description: string;
  credits: number;
  price_fen: number;
  /** 1: 套餐商店 sells it online when a payment channel is configured. */
  purchasable: Generated<number>;
  features: string;
  /** Days the credits of an order stay spendable after payment; null: they never expire. */
  validity_days: number | null;
  recommended: number;
  enabled: number;
  sort: number;
  created_at: string;
  updated_at: string;
}

/** One change of a user's credits (migration 0016): the reason, what caused it, and the balance after it. */
export interface CreditLedgerTable {
  id: string;
  user_id: string;
  delta: number;
  balance: number;
  reason: CreditReason;
  source_type: CreditSourceType | null;
  source_id: string | null;
  remark: string | null;
  created_at: string;
}

/** Secrets the server makes for itself on first start (the URL signing key). */
export interface ServerSecretTable {
  name: string;
  value: string;
}

/** Consecutive failed logins of one account or mobile (login-guard.service.ts); deleted on success. */
export interface LoginFailureTable {
  key: string;
  failures: number;
  /** No try is counted or checked before this moment: a slow-down or a lock. */
  blocked_until: string | null;
  updated_at: string;
}

/** A counted view: `viewer` is `user:<id>` or a hash of the client's address and browser; `day` is YYYY-MM-DD (UTC). */
export interface WorkViewTable {
  work_id: string;
  viewer: string;
  day: string;
}

/** 敏感词库: one row a word; `normalized` is the word as the filter compares it (unique). */
export interface SensitiveWordTable {
  id: string;
  word: string;
  normalized: string;
  category: string;
  created_at: string;
}

/** A personal API key: only its SHA-256 is kept; `scopes` is a JSON array of ApiKeyScope. */
export interface ApiKeyTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  /** `hf_` and the first characters of the secret, to recognise a key in lists. */
  prefix: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A webhook endpoint; `events` is a JSON array of WebhookEventType, `secret` the Standard Webhooks `whsec_…`. */
export interface WebhookEndpointTable {
  id: string;
  user_id: string;
  url: string;
  description: string;
  events: string;
  secret: string;
  /** An admin's endpoint receiving every user's events. */
  all_users: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint: `payload` is the exact body signed on every try. */
export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  /** pending (due at next_attempt_at, or held by a sender until then), succeeded or failed. */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
}

/** One entry of the audit trail (features/audit); `detail` is JSON text read with its schema. */
export interface AuditLogTable {
  id: string;
  at: string;
  actor_user_id: string | null;
  actor_mobile_masked: string | null;
  /** user, admin or system (see AUDIT_ROLE_LABELS). */
  actor_role: string;
  api_key_id: string | null;
  ip: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: string;
}

/** Why a work is in the admin queue (features/moderation/work-moderation.*): a provider flag or a report. */
export interface ModerationItemTable {
  id: string;
  work_id: string;
  /** image, text (the provider's checks) or report. */
  kind: string;
  /** The user who reported it; null for the provider's flags. */
  reporter_id: string | null;
  /** The provider's advice, review or block; null for a report. */
  verdict: string | null;
  /** The report's reason (WORK_REPORT_REASONS) or the provider's label code (Porn, Ad…). */
  reason: string;
  /** The reason in Chinese, as the queue shows it. */
  label: string;
  detail: string | null;
  created_at: string;
  /** The decision that closed it; null while it waits in the queue. */
  decision_id: string | null;
}

/** An admin's decision on a work in the queue; `reasons` is JSON read with moderationReasonCountSchema. */
export interface ModerationDecisionTable {
  id: string;
  work_id: string;
  /** approve (通过) or remove (下架). */
  decision: string;
  admin_id: string;
  note: string | null;
  reasons: string;
  created_at: string;
}

/** A purchase of a plan (features/payments): its id is our out_trade_no at the channel. */
export interface OrderTable {
  id: string;
  user_id: string;
  plan_id: string;
  plan_name: string;
  amount_fen: number;
  credits: number;
  channel: string;
  device: string;
  /** pending, paid, partially_refunded, refunded or closed. */
  status: string;
  /** user:plan while pending (unique), null after: one pending order per user and plan. */
  pending_key: string | null;
  close_reason: string | null;
  trade_no: string | null;
  refunded_fen: Generated<number>;
  /** Why an admin should look at it (paid after closing, credits already spent at a refund); null when fine. */
  review: string | null;
  /** The plan's validity when the order was made: its credits expire this many days after payment; null: never. */
  validity_days: number | null;
  /** JSON: the channel's fields from its last notification or query. */
  channel_data: string | null;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  closed_at: string | null;
  updated_at: string;
}

/** Credits that expire: one lot per paid order with a validity (features/credits). */
export interface CreditLotTable {
  id: string;
  user_id: string;
  /** What granted them, as in the ledger: `order`. */
  source_type: string;
  source_id: string;
  amount: number;
  /** What is left to spend; 0 once expired. */
  remaining: number;
  expires_at: string;
  /** Set by the sweep that took what was left off; null while the lot counts in the balance. */
  expired_at: string | null;
  created_at: string;
}

/** What a job's charge took from each lot (lot_id null: permanent credits), for its refund. */
export interface CreditDrawTable {
  id: string;
  job_id: string;
  lot_id: string | null;
  amount: number;
}

export interface OrderRefundTable {
  /** Our out_request_no (Alipay) / out_refund_no (WeChat). */
  id: string;
  order_id: string;
  amount_fen: number;
  reason: string;
  /** processing, succeeded or failed. */
  status: string;
  credits_taken: Generated<number>;
  credits_short: Generated<number>;
  admin_id: string;
  channel_data: string | null;
  created_at: string;
  updated_at: string;
}

/** The last reconciliation of one day (UTC+8); `mismatches` is JSON read with reconciliationMismatchSchema. */
export interface PaymentReconciliationTable {
  day: string;
  ran_at: string;
  checked: number;
  mismatches: string;
}

export interface DB {
  users: UserTable;
  sessions: SessionTable;
  registrations: RegistrationTable;
  sms_codes: SmsCodeTable;
  sms_send_slots: SmsSendSlotTable;
  invite_codes: InviteCodeTable;
  files: FileTable;
  help_types: HelpTypeTable;
  help_requests: HelpRequestTable;
  app_configs: AppConfigTable;
  task_nodes: TaskNodeTable;
  templates: TemplateTable;
  template_steps: TemplateStepTable;
  published_steps: PublishedStepTable;
  model_groups: ModelGroupTable;
  models: ModelTable;
  loras: LoraTable;
  backend_assets: BackendAssetTable;
  backend_syncs: BackendSyncTable;
  prompt_categories: PromptCategoryTable;
  prompt_words: PromptWordTable;
  generations: GenerationTable;
  generation_jobs: GenerationJobTable;
  works: WorkTable;
  work_counts: WorkCountTable;
  gallery_counts: GalleryCountTable;
  work_views: WorkViewTable;
  work_likes: WorkReactionTable;
  work_favorites: WorkReactionTable;
  notices: NoticeTable;
  prompt_history: PromptHistoryTable;
  backends: BackendTable;
  combo_plans: ComboPlanTable;
  credit_ledger: CreditLedgerTable;
  credit_lots: CreditLotTable;
  credit_draws: CreditDrawTable;
  server_secrets: ServerSecretTable;
  login_failures: LoginFailureTable;
  api_keys: ApiKeyTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  sensitive_words: SensitiveWordTable;
  audit_log: AuditLogTable;
  moderation_items: ModerationItemTable;
  moderation_decisions: ModerationDecisionTable;
  orders: OrderTable;
  order_refunds: OrderRefundTable;
  payment_reconciliations: PaymentReconciliationTable;
}
