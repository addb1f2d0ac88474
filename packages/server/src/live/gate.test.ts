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

  it('reads a bound given as a function at each question', async () => {
    let bound = 3;
    const gate = createGate(1, () => bound);
    const leave = await gate.enter();
    const waiting = [gate.enter(), gate.enter()];
    expect(gate.isBusy).toBe(false);
    bound = 2;
    expect(gate.isBusy).toBe(true);
    leave();
    (await waiting[0]!)();
    (await waiting[1]!)();
    expect(gate.isBusy).toBe(false);
  });
});
