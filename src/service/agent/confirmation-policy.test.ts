import { describe, expect, it } from 'vitest';
import { confirmationSettings, needsConfirmation } from './confirmation-policy';
import { Risk } from './security/rules-analyzer';

describe('confirmationSettings', () => {
  it('uses the rules analyzer by default in confirmation mode, none without it', () => {
    expect(confirmationSettings({})).toEqual({ confirmationMode: false, securityAnalyzer: null });
    expect(confirmationSettings({ confirmation_mode: true })).toEqual({
      confirmationMode: true,
      securityAnalyzer: 'rules',
    });
    expect(confirmationSettings({ confirmation_mode: true, security_analyzer: 'llm' })).toEqual({
      confirmationMode: true,
      securityAnalyzer: 'llm',
    });
    expect(confirmationSettings({ confirmation_mode: true, security_analyzer: '' }).securityAnalyzer).toBe(
      '',
    );
  });

  it('gives settings that needsConfirmation reads as the user chose them', () => {
    expect(needsConfirmation(confirmationSettings({ confirmation_mode: true }), Risk.MEDIUM, true)).toBe(
      false,
    );
    expect(
      needsConfirmation(
        confirmationSettings({ confirmation_mode: true, security_analyzer: '' }),
        Risk.LOW,
        false,
      ),
    ).toBe(true);
  });
});
