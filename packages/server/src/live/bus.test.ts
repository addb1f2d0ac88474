import { describe, expect, it } from 'vitest';
import { createMemoryBus, observedBus } from './bus';
import type { BusTopic } from './bus';

describe('observedBus', () => {
  it('counts each publish once and each delivery to a subscriber once, and still delivers', async () => {
    const counts = { published: [] as BusTopic[], received: [] as BusTopic[] };
    const bus = observedBus(createMemoryBus(), {
      published: (topic) => counts.published.push(topic),
      received: (topic) => counts.received.push(topic),
    });
    const got: number[] = [];
    const unsubscribe = bus.subscribe('agent.doorbell', (m) => got.push(...m.deviceIds));
    bus.subscribe('agent.doorbell', (m) => got.push(...m.deviceIds.map((id) => id * 10)));
    await bus.ready();
    await bus.publish('agent.doorbell', { deviceIds: [7] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(got.sort((a, b) => a - b)).toEqual([7, 70]);
    expect(counts).toEqual({ published: ['agent.doorbell'], received: ['agent.doorbell', 'agent.doorbell'] });

    unsubscribe();
    await bus.publish('agent.doorbell', { deviceIds: [8] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([7, 70, 80]);
    expect(counts.received).toHaveLength(3);
    expect(bus.kind).toBe('memory');
    await bus.close();
  });
});
