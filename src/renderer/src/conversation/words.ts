export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';

/** `security_risk` (0 low, 1 medium, 2 high, anything else unknown) as a level. */
export function riskLevel(risk: unknown): RiskLevel {
  if (risk === 0) return 'LOW';
  if (risk === 1) return 'MEDIUM';
  if (risk === 2) return 'HIGH';
  return 'UNKNOWN';
}

/** What each kind of a repository's own code is called. */
export const REPOSITORY_CODE_WORDS: Record<string, string> = {
  setup_script: 'setup script',
  git_hook: 'git hook',
  mcp_server: 'MCP server',
};
