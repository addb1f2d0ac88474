import { describe, expect, it } from 'vitest';
import { parseSubscriptionKey } from './live';

describe('subscription keys', () => {
  it('parse device guids (lower-cased) and deployment ids within the integer range', () => {
    expect(parseSubscriptionKey('device:0A1B2C3D-0000-4000-8000-00000000000F')).toEqual({
      kind: 'device',
      deviceGuid: '0a1b2c3d-0000-4000-8000-00000000000f',
    });
    expect(parseSubscriptionKey('deployment:1')).toEqual({ kind: 'deployment', id: 1 });
    expect(parseSubscriptionKey('deployment:2147483647')).toEqual({ kind: 'deployment', id: 2147483647 });
  });

  it('refuse ids no row can have (the database would refuse them) and malformed keys', () => {
    for (const key of [
      'deployment:2147483648',
      'deployment:9000000001',
      'deployment:0',
      'deployment:01',
      'deployment:-1',
      'deployment:1.5',
      'device:not-a-guid',
      'device:',
      'tenant:1',
      'no-separator',
    ]) {
      expect(parseSubscriptionKey(key), key).toBeNull();
    }
  });
});
