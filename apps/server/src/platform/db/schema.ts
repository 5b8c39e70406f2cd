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
}

export interface PromptHistoryTable {
  id: string;
  user_id: string;
  generation_id: string;
  prompt_group: string;
  negative_prompt_group: string;
  pin: number;
  created_at: string;
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
  price_label: string;
  features: string;
  recommended: number;
  enabled: number;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface CreditGrantTable {
  id: string;
  user_id: string;
  amount: number;
  remark: string | null;
  granted_by: string;
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

export interface DB {
  users: UserTable;
  sessions: SessionTable;
  registrations: RegistrationTable;
  sms_codes: SmsCodeTable;
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
  prompt_categories: PromptCategoryTable;
  prompt_words: PromptWordTable;
  generations: GenerationTable;
  generation_jobs: GenerationJobTable;
  works: WorkTable;
  work_views: WorkViewTable;
  prompt_history: PromptHistoryTable;
  backends: BackendTable;
  combo_plans: ComboPlanTable;
  credit_grants: CreditGrantTable;
  server_secrets: ServerSecretTable;
  login_failures: LoginFailureTable;
}
