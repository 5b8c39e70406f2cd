import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import { promptHistoryKey } from '../../features/prompt/prompt-history-key.js';
import { hotScore } from '../../features/works/hot-score.js';

/** prompt_history as 0017 finds it. */
type HistoryRow = {
  id: string;
  user_id: string;
  prompt_group: string;
  negative_prompt_group: string;
  pin: number;
  created_at: string;
};

/** The one migration list, run at start on SQLite and PostgreSQL alike. Append; never edit a landed one. */
const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('account', 'varchar(64)', (c) => c.unique())
        .addColumn('mobile', 'varchar(20)', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('nickname', 'varchar(64)')
        .addColumn('avatar_file_id', 'varchar(32)')
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('invite_code_id', 'varchar(32)')
        .addColumn('code_type', 'varchar(8)')
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('revoked_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('registrations')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('mobile', 'varchar(20)')
        .addColumn('account', 'varchar(64)')
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('completed_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sms_codes')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
        .addColumn('scene', 'varchar(16)', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_codes_mobile_idx').on('sms_codes').columns(['mobile', 'created_at']).execute();

      await db.schema
        .createTable('invite_codes')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('code_type', 'varchar(8)', (c) => c.notNull())
        .addColumn('max_uses', 'integer', (c) => c.notNull())
        .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remark', 'varchar(128)')
        .addColumn('created_by', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('files')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('mime', 'varchar(32)', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_owner_idx').on('files').column('owner_id').execute();

      await db.schema
        .createTable('help_types')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('help_requests')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('type_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('contact', 'varchar(64)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('app_configs')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('title', 'varchar(128)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
  '0002_tasks_templates_models_prompts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('task_nodes')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('parent_id', 'varchar(32)')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('icon', 'varchar(300)')
        .addColumn('cover', 'varchar(300)')
        .addColumn('description', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('owner_id', 'varchar(32)')
        .addColumn('source_id', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('task_nodes_parent_idx').on('task_nodes').column('parent_id').execute();
      await db.schema.createIndex('task_nodes_owner_idx').on('task_nodes').column('owner_id').execute();

      await db.schema
        .createTable('templates')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('cover', 'varchar(300)')
        .addColumn('description', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('owner_id', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('templates_task_idx').on('templates').column('task_id').execute();

      await db.schema
        .createTable('template_steps')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('template_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('generate_mode', 'varchar(16)', (c) => c.notNull())
        .addColumn('use_parent_image', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('prompt_group', 'text', (c) => c.notNull())
        .addColumn('negative_prompt_group', 'text', (c) => c.notNull())
        .addColumn('parameters', 'text', (c) => c.notNull())
        .addColumn('form_config', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('template_steps_template_idx').on('template_steps').column('template_id').execute();

      await db.schema
        .createTable('model_groups')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('models')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('group_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('model_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('cover', 'varchar(300)')
        .addColumn('base_model', 'varchar(32)', (c) => c.notNull())
        .addColumn('engine', 'varchar(16)', (c) => c.notNull())
        .addColumn('checkpoint', 'varchar(200)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('prompt_categories')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('variant', 'varchar(16)', (c) => c.notNull())
        .addColumn('parent_id', 'varchar(32)')
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('prompt_words')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('category_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('variant', 'varchar(16)', (c) => c.notNull())
        .addColumn('label', 'varchar(64)', (c) => c.notNull())
        .addColumn('text', 'varchar(200)', (c) => c.notNull())
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('prompt_words_category_idx').on('prompt_words').column('category_id').execute();
    },
  },
  '0003_template_published_snapshot': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('templates').addColumn('published_json', 'text').execute();
      // Which template's published version holds a step id, so a published step stays reachable after a draft drops it.
      await db.schema
        .createTable('published_steps')
        .addColumn('step_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('template_id', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('published_steps_template_idx').on('published_steps').column('template_id').execute();
    },
  },
  '0004_generation': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('generations')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('template_id', 'varchar(32)')
        .addColumn('template_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('current_job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('job_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('generations_user_idx').on('generations').columns(['user_id', 'status']).execute();

      // The embedded queue: one row per step run; queued rows are what a restart picks up again.
      await db.schema
        .createTable('generation_jobs')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('generation_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('step_num', 'integer', (c) => c.notNull())
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('template_step_id', 'varchar(64)')
        .addColumn('mode', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('prompt_group', 'text', (c) => c.notNull())
        .addColumn('negative_prompt_group', 'text', (c) => c.notNull())
        .addColumn('cost', 'integer', (c) => c.notNull())
        .addColumn('image_count', 'integer', (c) => c.notNull())
        .addColumn('produced', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('backend_id', 'varchar(32)')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('message', 'varchar(300)')
        .addColumn('queued_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('started_at', 'varchar(32)')
        .addColumn('finished_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('generation_jobs_status_idx').on('generation_jobs').column('status').execute();
      await db.schema
        .createIndex('generation_jobs_generation_idx')
        .on('generation_jobs')
        .column('generation_id')
        .execute();

      await db.schema
        .createTable('works')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('generation_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('template_id', 'varchar(32)')
        .addColumn('template_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('template_step_id', 'varchar(64)')
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('mode', 'varchar(16)', (c) => c.notNull())
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('negative_prompt', 'text', (c) => c.notNull())
        .addColumn('prompt_group', 'text', (c) => c.notNull())
        .addColumn('negative_prompt_group', 'text', (c) => c.notNull())
        .addColumn('parameters', 'text', (c) => c.notNull())
        .addColumn('seed', 'bigint', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('backend', 'varchar(64)', (c) => c.notNull())
        .addColumn('image_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('thumb_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('works_user_idx').on('works').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('works_generation_idx').on('works').column('generation_id').execute();

      await db.schema
        .createTable('prompt_history')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('generation_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('prompt_group', 'text', (c) => c.notNull())
        .addColumn('negative_prompt_group', 'text', (c) => c.notNull())
        .addColumn('pin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('prompt_history_user_idx').on('prompt_history').columns(['user_id', 'pin']).execute();

      await db.schema
        .createTable('backends')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('base_url', 'varchar(300)', (c) => c.notNull())
        .addColumn('username', 'varchar(64)')
        .addColumn('secret', 'varchar(256)')
        .addColumn('models', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('combo_plans')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('description', 'varchar(400)', (c) => c.notNull())
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('price_label', 'varchar(64)', (c) => c.notNull())
        .addColumn('features', 'text', (c) => c.notNull())
        .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('credit_grants')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('remark', 'varchar(200)')
        .addColumn('granted_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
  '0005_galleries': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('works')
        .addColumn('hide_prompt', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('works').addColumn('published_at', 'varchar(32)').execute();
      // Set by an admin in 作品审核: a hidden work leaves the public gallery but stays the author's.
      await db.schema
        .alterTable('works')
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('works_public_idx')
        .on('works')
        .columns(['public', 'hidden', 'published_at'])
        .execute();
      await db.schema.createIndex('works_template_idx').on('works').columns(['template_id', 'public']).execute();
      await db.schema
        .createIndex('prompt_history_user_created_idx')
        .on('prompt_history')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  },
  '0006_server_secrets': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'varchar(128)', (c) => c.notNull())
        .execute();
    },
  },
  '0007_login_failures': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('login_failures')
        .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('blocked_until', 'varchar(32)')
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
  '0008_work_views': {
    async up(db: Kysely<unknown>) {
      // One row per work, viewer and day: the key makes a repeated view a no-op, however many arrive at once.
      await db.schema
        .createTable('work_views')
        .addColumn('work_id', 'varchar(32)', (c) => c.notNull().references('works.id').onDelete('cascade'))
        .addColumn('viewer', 'varchar(64)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addPrimaryKeyConstraint('work_views_pk', ['work_id', 'viewer', 'day'])
        .execute();
      await db.schema.createIndex('work_views_day_idx').on('work_views').column('day').execute();
    },
  },
  '0009_featured_templates': {
    async up(db: Kysely<unknown>) {
      // Chosen by an admin for the home page's 精选模板, shown in featured_sort order.
      await db.schema
        .alterTable('templates')
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('templates')
        .addColumn('featured_sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0010_job_hand_over': {
    async up(db: Kysely<unknown>) {
      // Scale-out mode: when a waiting job was handed to BullMQ (null while it waits in its user's backlog).
      await db.schema.alterTable('generation_jobs').addColumn('handed_at', 'varchar(32)').execute();
      await db.schema
        .createIndex('generation_jobs_user_status_idx')
        .on('generation_jobs')
        .columns(['user_id', 'status'])
        .execute();
    },
  },
  '0011_sensitive_words': {
    async up(db: Kysely<unknown>) {
      // 敏感词库: `normalized` is the word as the filter compares it, so 虐杀 and 虐殺 are one entry.
      await db.schema
        .createTable('sensitive_words')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('word', 'varchar(100)', (c) => c.notNull())
        .addColumn('normalized', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sensitive_words_category_idx').on('sensitive_words').column('category').execute();
    },
  },
  '0012_open_api': {
    async up(db: Kysely<unknown>) {
      // 个人 API 密钥: only the SHA-256 of a key is kept; a revoked key stays (revoked_at) for the audit trail.
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
        .addColumn('scopes', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(32)')
        .addColumn('revoked_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').columns(['user_id', 'revoked_at']).execute();

      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'varchar(500)', (c) => c.notNull())
        .addColumn('description', 'varchar(200)', (c) => c.notNull())
        .addColumn('events', 'varchar(200)', (c) => c.notNull())
        .addColumn('secret', 'varchar(100)', (c) => c.notNull())
        .addColumn('all_users', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_user_idx').on('webhook_endpoints').column('user_id').execute();

      // The outbox: written in the transaction of the event itself, sent (and retried) by the sender loop.
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'varchar(32)', (c) =>
          c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
        )
        .addColumn('event_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('event_type', 'varchar(40)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint_idx')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('delivery_id', 'varchar(32)', (c) =>
          c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
        )
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', 'varchar(32)', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'varchar(200)')
        .addColumn('response_excerpt', 'varchar(300)')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery_idx')
        .on('webhook_attempts')
        .column('delivery_id')
        .execute();
    },
  },
  '0013_audit_log': {
    async up(db: Kysely<unknown>) {
      // 审计日志: no foreign keys, so an entry outlives the user, work or key it names (it is the record of them).
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('at', 'varchar(32)', (c) => c.notNull())
        .addColumn('actor_user_id', 'varchar(32)')
        .addColumn('actor_mobile_masked', 'varchar(20)')
        .addColumn('actor_role', 'varchar(8)', (c) => c.notNull())
        .addColumn('api_key_id', 'varchar(32)')
        .addColumn('ip', 'varchar(64)')
        .addColumn('action', 'varchar(40)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(32)')
        .addColumn('target_id', 'varchar(64)')
        .addColumn('detail', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
      await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_user_id', 'at']).execute();
      await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'at']).execute();
    },
  },
  '0014_work_moderation': {
    async up(db: Kysely<unknown>) {
      // 内容审核 (docs/compliance.md): `moderation` is none, approved (an admin passed it: publishing skips the
      // provider) or removed (下架: it cannot be published again); `publish_pending` when the author asked to publish
      // and the provider flagged it, so 通过 publishes it.
      await db.schema
        .alterTable('works')
        .addColumn('moderation', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
        .execute();
      await db.schema
        .alterTable('works')
        .addColumn('publish_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Why a work is in the admin queue: the provider's image or prompt flag, or a user's report. A decision
      // closes every open one of the work (decision_id). One report per user and work, however many arrive at
      // once: the unique key (NULL reporters, the provider's flags, never collide).
      await db.schema
        .createTable('moderation_items')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('work_id', 'varchar(32)', (c) => c.notNull().references('works.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('reporter_id', 'varchar(32)')
        .addColumn('verdict', 'varchar(16)')
        .addColumn('reason', 'varchar(32)', (c) => c.notNull())
        .addColumn('label', 'varchar(64)', (c) => c.notNull())
        .addColumn('detail', 'varchar(500)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('decision_id', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('moderation_items_report_once')
        .on('moderation_items')
        .columns(['work_id', 'reporter_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('moderation_items_open_idx')
        .on('moderation_items')
        .columns(['decision_id', 'created_at'])
        .execute();
      // The decision history: no foreign keys, so a decision outlives the work it names (it is the record of it).
      await db.schema
        .createTable('moderation_decisions')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('work_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('decision', 'varchar(16)', (c) => c.notNull())
        .addColumn('admin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('note', 'varchar(200)')
        .addColumn('reasons', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('moderation_decisions_created_idx')
        .on('moderation_decisions')
        .column('created_at')
        .execute();
      await db.schema
        .createIndex('moderation_decisions_work_idx')
        .on('moderation_decisions')
        .columns(['work_id', 'created_at'])
        .execute();
    },
  },
  '0015_sms_send_slots': {
    async up(db: Kysely<unknown>) {
      // One row per mobile: a send claims it with one conditional upsert, so of parallel sends (on any API
      // process) exactly one finds the interval over. Seeded from the codes already sent, so no resend interval
      // running at the upgrade restarts.
      await db.schema
        .createTable('sms_send_slots')
        .addColumn('mobile', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('sent_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await sql`insert into sms_send_slots (mobile, sent_at) select mobile, max(created_at) from sms_codes group by mobile`.execute(
        db,
      );
    },
  },
  '0016_credit_ledger': {
    async up(db: Kysely<unknown>) {
      // Every change of a user's credits, with its reason and what caused it (a job, an admin, an order): what
      // 算力明细 lists. `balance` is the user's credits right after the change.
      await db.schema
        .createTable('credit_ledger')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('delta', 'integer', (c) => c.notNull())
        .addColumn('balance', 'integer', (c) => c.notNull())
        .addColumn('reason', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_type', 'varchar(16)')
        .addColumn('source_id', 'varchar(32)')
        .addColumn('remark', 'varchar(200)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('credit_ledger_user_idx')
        .on('credit_ledger')
        .columns(['user_id', 'created_at', 'id'])
        .execute();
      // The ledger opens with each user's balance of today (the rows are keyed by the user's id, unique here
      // as the later rows' fresh ids are); the admins' grants before it stay in the audit trail.
      await sql`insert into credit_ledger (id, user_id, delta, balance, reason, created_at)
        select id, id, credits, credits, 'opening', ${new Date().toISOString()} from users where credits <> 0`.execute(
        db,
      );
      await db.schema.dropTable('credit_grants').execute();
    },
  },
  '0017_chinese_prompts': {
    async up(base: Kysely<unknown>) {
      const db = base as Kysely<{ prompt_history: HistoryRow & { content_key: string | null } }>;
      // Off by default: most checkpoints read only English, so Chinese reaches them translated.
      await db.schema
        .alterTable('models')
        .addColumn('chinese_prompts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // The prompts as written, when the engine read them translated (works.prompt).
      await db.schema.alterTable('works').addColumn('source_prompt', 'text').execute();
      await db.schema.alterTable('works').addColumn('source_negative_prompt', 'text').execute();
      // One entry per set of words and user: a save of the same words moves the entry up instead of adding one.
      await db.schema.alterTable('prompt_history').addColumn('content_key', 'varchar(64)').execute();
      const rows = await db
        .selectFrom('prompt_history')
        .select(['id', 'user_id', 'prompt_group', 'negative_prompt_group', 'pin'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const kept = new Map<string, { id: string; pin: number }>();
      for (const row of rows) {
        const key = promptHistoryKey(row.prompt_group, row.negative_prompt_group);
        const newest = kept.get(`${row.user_id}\t${key}`);
        if (newest) {
          // An older copy goes; a pin it had stays on the newest.
          if (row.pin === 1 && newest.pin === 0) {
            await db.updateTable('prompt_history').set({ pin: 1 }).where('id', '=', newest.id).execute();
            newest.pin = 1;
          }
          await db.deleteFrom('prompt_history').where('id', '=', row.id).execute();
          continue;
        }
        kept.set(`${row.user_id}\t${key}`, { id: row.id, pin: row.pin });
        await db.updateTable('prompt_history').set({ content_key: key }).where('id', '=', row.id).execute();
      }
      await db.schema
        .createIndex('prompt_history_content_once')
        .on('prompt_history')
        .columns(['user_id', 'content_key'])
        .unique()
        .execute();
    },
  },
  '0018_work_reactions': {
    async up(db: Kysely<unknown>) {
      // 点赞 and 收藏: one row per user and work (the key decides, however many requests race); the counts on the
      // work change in the same transaction as a row appears or goes, so cards never count the tables.
      for (const table of ['work_likes', 'work_favorites']) {
        await db.schema
          .createTable(table)
          .addColumn('work_id', 'varchar(32)', (c) => c.notNull().references('works.id').onDelete('cascade'))
          .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['work_id', 'user_id'])
          .execute();
      }
      // 我的收藏 lists a user's favourites, the latest first.
      await db.schema
        .createIndex('work_favorites_user_idx')
        .on('work_favorites')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .alterTable('works')
        .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('works')
        .addColumn('favorites', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // 热门: log of the engagement plus the publication time (docs/community.md); it only changes when a work
      // is published, liked, favourited or viewed, so it is stored and indexed like 最新's published_at.
      await db.schema
        .alterTable('works')
        .addColumn('hot_score', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
      const published = await sql<{ id: string; views: number; published_at: string }>`
        select id, views, published_at from works where public = 1 and published_at is not null`.execute(db);
      for (const work of published.rows) {
        const score = hotScore({ likes: 0, favorites: 0, views: Number(work.views), publishedAt: work.published_at });
        await sql`update works set hot_score = ${score} where id = ${work.id}`.execute(db);
      }
      await db.schema.createIndex('works_hot_idx').on('works').columns(['public', 'hidden', 'hot_score']).execute();
      // What an author is told: a work of theirs taken down, with the reason. Kept after the work is deleted.
      await db.schema
        .createTable('notices')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('work_id', 'varchar(32)')
        .addColumn('title', 'varchar(100)', (c) => c.notNull())
        .addColumn('body', 'varchar(500)', (c) => c.notNull())
        .addColumn('read_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id', 'created_at']).execute();
    },
  },
  '0019_account_steps': {
    async up(db: Kysely<unknown>) {
      // Steps of the account a user has taken once and for all: closing the optional invite step (so no device
      // asks again), and the one change of the account name.
      await db.schema.alterTable('users').addColumn('invite_skipped_at', 'varchar(32)').execute();
      await db.schema.alterTable('users').addColumn('account_renamed_at', 'varchar(32)').execute();
    },
  },
  '0020_payments': {
    async up(db: Kysely<unknown>) {
      // Plans get a price in fen, parsed from the old free-text label (¥9.9 / 月 → 990). A label without a number
      // keeps price 0 and is not sold online until an admin sets its price.
      await db.schema
        .alterTable('combo_plans')
        .addColumn('price_fen', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('combo_plans')
        .addColumn('purchasable', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      const plans = await sql<{ id: string; price_label: string }>`select id, price_label from combo_plans`.execute(db);
      for (const plan of plans.rows) {
        const yuan = /(\d+(?:\.\d{1,2})?)/.exec(plan.price_label.replace(/,/g, ''))?.[1];
        const fen = yuan === undefined ? 0 : Math.round(Number(yuan) * 100);
        await sql`update combo_plans set price_fen = ${fen}, purchasable = ${fen > 0 ? 1 : 0} where id = ${plan.id}`.execute(
          db,
        );
      }
      await db.schema.alterTable('combo_plans').dropColumn('price_label').execute();
      // An order is our out_trade_no at the channel. pending_key (user:plan) is set only while the order is pending:
      // its unique index lets parallel buys of one plan by one user find one order, on any API process.
      await db.schema
        .createTable('orders')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('plan_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('plan_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('amount_fen', 'integer', (c) => c.notNull())
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        .addColumn('device', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(24)', (c) => c.notNull())
        .addColumn('pending_key', 'varchar(80)', (c) => c.unique())
        .addColumn('close_reason', 'varchar(16)')
        .addColumn('trade_no', 'varchar(64)')
        .addColumn('refunded_fen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('review', 'varchar(200)')
        .addColumn('channel_data', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('paid_at', 'varchar(32)')
        .addColumn('closed_at', 'varchar(32)')
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'expires_at']).execute();
      await db.schema.createIndex('orders_paid_idx').on('orders').column('paid_at').execute();
      await db.schema.createIndex('orders_created_idx').on('orders').column('created_at').execute();
      await db.schema
        .createTable('order_refunds')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('order_id', 'varchar(32)', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('amount_fen', 'integer', (c) => c.notNull())
        .addColumn('reason', 'varchar(200)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('credits_taken', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('credits_short', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('admin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('channel_data', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('order_refunds_order_idx').on('order_refunds').column('order_id').execute();
      // One row per reconciled day (UTC+8), replaced by each run; mismatches as JSON.
      await db.schema
        .createTable('payment_reconciliations')
        .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
        .addColumn('ran_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('checked', 'integer', (c) => c.notNull())
        .addColumn('mismatches', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0021_credit_expiry': {
    async up(db: Kysely<unknown>) {
      // A plan may grant credits for a number of days (null: for good); its orders keep the number they were sold with.
      await db.schema.alterTable('combo_plans').addColumn('validity_days', 'integer').execute();
      await db.schema.alterTable('orders').addColumn('validity_days', 'integer').execute();
      // Credits that expire, one lot per paid order with a validity: what is left of it (`remaining`) is part of the
      // user's balance until `expires_at`, when the sweep takes it off and sets `expired_at`. Credits without a lot
      // are permanent: the balance less the lots' remaining.
      await db.schema
        .createTable('credit_lots')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('remaining', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('expired_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('credit_lots_source_unique', ['source_type', 'source_id'])
        .execute();
      await db.schema
        .createIndex('credit_lots_user_idx')
        .on('credit_lots')
        .columns(['user_id', 'expires_at'])
        .execute();
      await db.schema
        .createIndex('credit_lots_due_idx')
        .on('credit_lots')
        .columns(['expired_at', 'expires_at'])
        .execute();
      // What a job's charge took from each lot (lot_id null: from permanent credits), so its refund gives them back
      // where they came from. Written only when a charge touched a lot: a job without rows was paid from permanent credits.
      await db.schema
        .createTable('credit_draws')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('lot_id', 'varchar(32)')
        .addColumn('amount', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_draws_job_idx').on('credit_draws').column('job_id').execute();
    },
  },
  '0022_loras_and_backend_assets': {
    async up(db: Kysely<unknown>) {
      // 底模 family (sets sizes and which LoRAs fit), who may use the model (JSON {planIds}), its short hash.
      await db.schema
        .alterTable('models')
        .addColumn('family', 'varchar(16)', (c) => c.notNull().defaultTo('其他'))
        .execute();
      await db.schema
        .alterTable('models')
        .addColumn('access', 'text', (c) => c.notNull().defaultTo('{"planIds":[]}'))
        .execute();
      await db.schema.alterTable('models').addColumn('hash', 'varchar(64)').execute();
      // Models stored before families: the family their free-text base model names, else 其他.
      for (const family of ['SD1.5', 'SD2', 'SDXL', 'Pony', 'Illustrious', 'SD3', 'FLUX', 'Kolors']) {
        await sql`update models set family = ${family} where replace(lower(base_model), ' ', '') = ${family.toLowerCase()}`.execute(
          db,
        );
      }
      // LoRA styles: one per engine kind and backend file name (`lora_name`); JSON trigger words and access.
      await db.schema
        .createTable('loras')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('lora_name', 'varchar(200)', (c) => c.notNull())
        .addColumn('engine', 'varchar(16)', (c) => c.notNull())
        .addColumn('style_group', 'varchar(32)', (c) => c.notNull())
        .addColumn('cover', 'varchar(200)')
        .addColumn('description', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('family', 'varchar(16)', (c) => c.notNull())
        .addColumn('trigger_words', 'text', (c) => c.notNull())
        .addColumn('default_weight', 'double precision', (c) => c.notNull())
        .addColumn('min_weight', 'double precision', (c) => c.notNull())
        .addColumn('max_weight', 'double precision', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('access', 'text', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('loras_engine_name_unique', ['engine', 'lora_name'])
        .execute();
      // What each backend reported at its last sync (kind: checkpoint | lora | vae); one row per asset, so two
      // syncs at once cannot store it twice.
      await db.schema
        .createTable('backend_assets')
        .addColumn('backend_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('title', 'varchar(300)', (c) => c.notNull())
        .addColumn('name', 'varchar(300)', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)')
        .addColumn('synced_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('backend_assets_pk', ['backend_id', 'kind', 'title'])
        .execute();
      // A backend that was synced at all: without a row its LoRAs are unknown and jobs needing one go elsewhere.
      await db.schema
        .createTable('backend_syncs')
        .addColumn('backend_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('synced_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
  '0023_gallery_page_indexes': {
    async up(db: Kysely<unknown>) {
      // Galleries order by a time or score and then the id, and pick a page's ids from the index alone (see
      // WorkRepository.pageOwned): each index now ends on the id, so a deep page or a keyset continuation reads
      // index entries in order, with no sort and no row visited before the page's own.
      await db.schema.dropIndex('works_user_idx').execute();
      await db.schema.createIndex('works_user_idx').on('works').columns(['user_id', 'created_at', 'id']).execute();
      await db.schema.dropIndex('works_public_idx').execute();
      await db.schema
        .createIndex('works_public_idx')
        .on('works')
        .columns(['public', 'hidden', 'published_at', 'id'])
        .execute();
      await db.schema.dropIndex('works_hot_idx').execute();
      await db.schema
        .createIndex('works_hot_idx')
        .on('works')
        .columns(['public', 'hidden', 'hot_score', 'id'])
        .execute();
    },
  },
  '0024_work_counts': {
    async up(db: Kysely<unknown>) {
      // 我的作品's total without counting the user's works on every page (see WorkRepository.pageOwned). Triggers keep
      // it in the transaction that adds or deletes a work, whoever writes the row (a generation, a test, a script),
      // so it cannot drift; on PostgreSQL the upsert holds the user's counter row until that transaction ends, so
      // racing inserts and deletes each count from what the other left.
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      const create = async (trx: Kysely<unknown>) => {
        await trx.schema
          .createTable('work_counts')
          .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('works', 'integer', (c) => c.notNull())
          .execute();
        await sql`insert into work_counts (user_id, works) select user_id, count(*) from works group by user_id`.execute(
          trx,
        );
        if (postgres) {
          // Per statement, from the rows it changed: a batch insert or a delete of many works moves each counter once.
          await sql`create function work_counts_added() returns trigger language plpgsql as $$
  begin
    insert into work_counts (user_id, works)
      select user_id, count(*) from added group by user_id order by user_id
      on conflict (user_id) do update set works = work_counts.works + excluded.works;
    return null;
  end $$`.execute(trx);
          await sql`create function work_counts_removed() returns trigger language plpgsql as $$
  begin
    update work_counts set works = work_counts.works - gone.n
      from (select user_id, count(*) as n from removed group by user_id order by user_id) gone
      where work_counts.user_id = gone.user_id;
    return null;
  end $$`.execute(trx);
          await sql`create trigger work_counts_insert after insert on works referencing new table as added
            for each statement execute function work_counts_added()`.execute(trx);
          await sql`create trigger work_counts_delete after delete on works referencing old table as removed
            for each statement execute function work_counts_removed()`.execute(trx);
        } else {
          await sql`create trigger work_counts_insert after insert on works begin
    insert into work_counts (user_id, works) values (new.user_id, 1)
      on conflict (user_id) do update set works = works + 1;
  end`.execute(trx);
          await sql`create trigger work_counts_delete after delete on works begin
    update work_counts set works = works - 1 where user_id = old.user_id;
  end`.execute(trx);
        }
      };
      if (postgres) {
        // Kysely runs PostgreSQL's migrations in one transaction; the lock keeps works still from the copy to the
        // triggers, so a work another process writes meanwhile is counted by one or the other, never by neither.
        await sql`lock table works in share row exclusive mode`.execute(db);
        await create(db);
      } else {
        // SQLite's run outside a transaction: this one is all or nothing, or a crash would leave a table without
        // its triggers.
        await db.transaction().execute(create);
      }
    },
  },
  '0025_gallery_counts': {
    async up(db: Kysely<unknown>) {
      // 灵感广场's total (public works not hidden) without counting tens of thousands of rows on every page, so a deep
      // page can also be read from the far end (see WorkRepository.pagePublic). As in 0024, triggers keep it in the
      // transaction that changes a row, whatever writes it: an insert or delete of a visible work, and an update
      // that makes a work visible or not (发布, 取消发布, 隐藏, 恢复). The update trigger is per row, and fires only
      // when visibility really changes: PostgreSQL allows no transition tables on a trigger limited to columns, and
      // views, likes and scores, the frequent updates, must not touch the one counter row every publication locks.
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      const create = async (trx: Kysely<unknown>) => {
        await trx.schema
          .createTable('gallery_counts')
          .addColumn('name', 'varchar(16)', (c) => c.primaryKey())
          .addColumn('works', 'integer', (c) => c.notNull())
          .execute();
        await sql`insert into gallery_counts (name, works)
          select 'omnibus', count(*) from works where public = 1 and hidden = 0`.execute(trx);
        if (postgres) {
          await sql`create function gallery_counts_added() returns trigger language plpgsql as $$
  begin
    update gallery_counts set works = gallery_counts.works + shown.n
      from (select count(*) as n from added where public = 1 and hidden = 0) shown
      where name = 'omnibus' and shown.n > 0;
    return null;
  end $$`.execute(trx);
          await sql`create function gallery_counts_removed() returns trigger language plpgsql as $$
  begin
    update gallery_counts set works = gallery_counts.works - shown.n
      from (select count(*) as n from removed where public = 1 and hidden = 0) shown
      where name = 'omnibus' and shown.n > 0;
    return null;
  end $$`.execute(trx);
          await sql`create function gallery_counts_moved() returns trigger language plpgsql as $$
  begin
    update gallery_counts
      set works = works + case when new.public = 1 and new.hidden = 0 then 1 else -1 end
      where name = 'omnibus';
    return null;
  end $$`.execute(trx);
          await sql`create trigger gallery_counts_insert after insert on works referencing new table as added
            for each statement execute function gallery_counts_added()`.execute(trx);
          await sql`create trigger gallery_counts_delete after delete on works referencing old table as removed
            for each statement execute function gallery_counts_removed()`.execute(trx);
          await sql`create trigger gallery_counts_update after update of public, hidden on works for each row
            when ((old.public = 1 and old.hidden = 0) is distinct from (new.public = 1 and new.hidden = 0))
            execute function gallery_counts_moved()`.execute(trx);
        } else {
          await sql`create trigger gallery_counts_insert after insert on works
    when new.public = 1 and new.hidden = 0 begin
    update gallery_counts set works = works + 1 where name = 'omnibus';
  end`.execute(trx);
          await sql`create trigger gallery_counts_delete after delete on works
    when old.public = 1 and old.hidden = 0 begin
    update gallery_counts set works = works - 1 where name = 'omnibus';
  end`.execute(trx);
          await sql`create trigger gallery_counts_update after update of public, hidden on works
    when (old.public = 1 and old.hidden = 0) is not (new.public = 1 and new.hidden = 0) begin
    update gallery_counts
      set works = works + case when new.public = 1 and new.hidden = 0 then 1 else -1 end
      where name = 'omnibus';
  end`.execute(trx);
        }
      };
      if (postgres) {
        // As 0024: works stay still from the count to the triggers, so a work published meanwhile is counted once.
        await sql`lock table works in share row exclusive mode`.execute(db);
        await create(db);
      } else {
        await db.transaction().execute(create);
      }
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
