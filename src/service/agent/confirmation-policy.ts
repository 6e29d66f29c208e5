import type { SettingsUpdate } from '../../shared/api/settings';
import { Risk } from './security/rules-analyzer';

export interface ConfirmationSettings {
  confirmationMode: boolean;
  /** null or "" (ask about every side effect), `rules` (default), `llm`; other names act as `rules`. */
  securityAnalyzer: string | null;
}

/**
 * Whether a side-effecting action waits for the user: never without confirmation mode; always without an
 * analyzer; with `rules` at HIGH risk; with `llm` at declared HIGH or when no risk was declared.
 */
export function needsConfirmation(
  settings: ConfirmationSettings,
  risk: number,
  undeclared: boolean,
): boolean {
  if (!settings.confirmationMode) return false;
  if (!settings.securityAnalyzer) return true;
  if (settings.securityAnalyzer === 'llm') return undeclared || risk >= Risk.HIGH;
  return risk >= Risk.HIGH;
}

/** The confirmation settings from the stored settings: the `rules` analyzer by default in confirmation mode. */
export function confirmationSettings(
  settings: Pick<SettingsUpdate, 'confirmation_mode' | 'security_analyzer'>,
): ConfirmationSettings {
  return {
    confirmationMode: settings.confirmation_mode ?? false,
    securityAnalyzer: settings.security_analyzer ?? (settings.confirmation_mode ? 'rules' : null),
  };
}
