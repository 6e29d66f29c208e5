import { describe, expect, it } from 'vitest';
import { riskLevel } from './words';

describe('risk levels', () => {
  it('maps security_risk 0/1/2 to levels and anything else to unknown', () => {
    expect([0, 1, 2, -1, undefined, 'HIGH'].map(riskLevel)).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'UNKNOWN',
      'UNKNOWN',
      'UNKNOWN',
    ]);
  });
});
