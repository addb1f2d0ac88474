import { describe, expect, it } from 'vitest';
import { createGate } from './gate';

describe('gate', () => {
  it('lets `limit` callers in at once and the rest in arrival order as places are given back', async () => {
    const gate = createGate(2, 2);
    const order: string[] = [];
    const a = await gate.enter();
    const b = await gate.enter();
    expect(gate.inFlight).toBe(2);
    const c = gate.enter().then((leave) => (order.push('c'), leave));
    const d = gate.enter().then((leave) => (order.push('d'), leave));
    expect(gate.waiting).toBe(2);
    expect(gate.isBusy).toBe(true);
    a();
    a(); // given back once only
    const leaveC = await c;
    expect(order).toEqual(['c']);
    expect(gate.inFlight).toBe(2);
    expect(gate.isBusy).toBe(false);
    b();
    (await d)();
    leaveC();
    expect(order).toEqual(['c', 'd']);
    expect(gate.inFlight).toBe(0);
    expect(gate.waiting).toBe(0);
  });
});
