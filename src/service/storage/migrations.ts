/**
 * Versioned schema changes, applied in order at start. Never edit a released migration: add a new one.
 * Secrets are never stored here (they live in the OS keychain).
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'settings and git providers',
    sql: `
      CREATE TABLE settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE provider_tokens (
        provider TEXT PRIMARY KEY,
        host TEXT,
        user_id TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE custom_secrets (
        name TEXT PRIMARY KEY,
        description TEXT,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'conversation events',
    sql: `
      CREATE TABLE events (
        conversation_id TEXT NOT NULL,
        id INTEGER NOT NULL,
        timestamp TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (conversation_id, id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'sandboxes and the install id',
    sql: `
      CREATE TABLE service_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      INSERT INTO service_meta (key, value) VALUES ('instance_id', lower(hex(randomblob(16))));
      CREATE TABLE sandboxes (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL CHECK (provider IN ('docker', 'process')),
        spec_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING')),
        error TEXT,
        container_id TEXT,
        exposed_urls TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        last_used_at TEXT NOT NULL
      );
      CREATE INDEX sandboxes_by_created ON sandboxes (created_at DESC, id);
    `,
  },
  {
    version: 4,
    name: 'editor undo history',
    sql: `
      CREATE TABLE edit_history (
        conversation_id TEXT NOT NULL,
        path TEXT NOT NULL,
        seq INTEGER NOT NULL,
        content BLOB,
        PRIMARY KEY (conversation_id, path, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    name: 'conversations',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        title_is_custom INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        runtime_status TEXT,
        agent_state TEXT,
        selected_repository TEXT,
        selected_branch TEXT,
        git_provider TEXT,
        trigger TEXT,
        pr_number TEXT NOT NULL DEFAULT '[]',
        conversation_version TEXT NOT NULL,
        sandbox_id TEXT,
        parent_conversation_id TEXT,
        llm_model TEXT,
        request TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_updated_at TEXT NOT NULL
      );
      CREATE INDEX conversations_created ON conversations (created_at DESC, id);
    `,
  },
  {
    version: 6,
    name: 'app conversation start tasks',
    sql: `
      CREATE TABLE start_tasks (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        detail TEXT,
        app_conversation_id TEXT,
        sandbox_id TEXT,
        agent_server_url TEXT,
        request TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX start_tasks_created ON start_tasks (created_at DESC, id);
    `,
  },
  {
    version: 7,
    name: 'agent state across restarts',
    sql: `
      CREATE TABLE agent_states (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'git-provider tokens saved while the provider was unreachable',
    sql: `ALTER TABLE provider_tokens ADD COLUMN verified INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 9,
    name: 'the agent each conversation runs',
    sql: `ALTER TABLE conversations ADD COLUMN agent TEXT NOT NULL DEFAULT 'dockhand';`,
  },
  {
    version: 10,
    name: 'events stored as Dockhand events; earlier rows stay V0 events, read through the V0 mapper',
    sql: `ALTER TABLE events ADD COLUMN format TEXT NOT NULL DEFAULT 'v0';`,
  },
  {
    version: 11,
    name: 'the ACP session of a conversation run by a coding agent (to load it again after a restart)',
    sql: `ALTER TABLE conversations ADD COLUMN acp_session TEXT;`,
  },
];
