import { describe, expect, it } from 'vitest';
import { createMemoryBus, observedBus } from './bus';
import type { BusTopic, BusTopics } from './bus';

/** Lets the memory bus deliver what was published so far (it delivers on a later turn). */
const delivered = () => new Promise((resolve) => setImmediate(resolve));

describe('createMemoryBus', () => {
  it('delivers a copy: the publisher changing its object after publishing changes nothing delivered', async () => {
    const bus = createMemoryBus();
    const got: BusTopics['agent.doorbell'][] = [];
    bus.subscribe('agent.doorbell', (m) => got.push(m));
    const message = { deviceIds: [1, 2] };
    await bus.publish('agent.doorbell', message);
    message.deviceIds.push(3);
    await delivered();
    expect(got).toEqual([{ deviceIds: [1, 2] }]);
    expect(got[0]).not.toBe(message);
    await bus.close();
  });

  it('a subscriber changing what it received does not change the publisher’s object', async () => {
    const bus = createMemoryBus();
    bus.subscribe('agent.disconnect', (m) => {
      m.reason = 'changed by a subscriber';
    });
    const message = { deviceId: 4, reason: 'secret rotated' };
    await bus.publish('agent.disconnect', message);
    await delivered();
    expect(message).toEqual({ deviceId: 4, reason: 'secret rotated' });
    await bus.close();
  });

  it('delivers later, never inside publish: nothing has arrived when publish returns or resolves', async () => {
    const bus = createMemoryBus();
    const got: number[] = [];
    bus.subscribe('agent.doorbell', (m) => got.push(...m.deviceIds));
    const publishing = bus.publish('agent.doorbell', { deviceIds: [5] });
    expect(got).toEqual([]);
    await publishing;
    expect(got).toEqual([]);
    await delivered();
    expect(got).toEqual([5]);
    await bus.close();
  });

  it('delivers in publish order, across topics too', async () => {
    const bus = createMemoryBus();
    const got: string[] = [];
    bus.subscribe('agent.doorbell', (m) => got.push(`doorbell ${m.deviceIds.join()}`));
    bus.subscribe('agent.disconnect', (m) => got.push(`disconnect ${m.deviceId}`));
    for (const id of [1, 2, 3]) {
      await bus.publish('agent.doorbell', { deviceIds: [id] });
      await bus.publish('agent.disconnect', { deviceId: id, reason: 'removed' });
    }
    await delivered();
    expect(got).toEqual([
      'doorbell 1',
      'disconnect 1',
      'doorbell 2',
      'disconnect 2',
      'doorbell 3',
      'disconnect 3',
    ]);
    await bus.close();
  });

  it('delivers to every subscriber of the topic and to none of another topic', async () => {
    const bus = createMemoryBus();
    const got: string[] = [];
    bus.subscribe('agent.doorbell', (m) => got.push(`first ${m.deviceIds.join()}`));
    bus.subscribe('agent.doorbell', (m) => got.push(`second ${m.deviceIds.join()}`));
    bus.subscribe('portal.sessions', (m) => got.push(`sessions ${m.userIds.join()}`));
    await bus.publish('agent.doorbell', { deviceIds: [6] });
    await delivered();
    expect(got).toEqual(['first 6', 'second 6']);
    await bus.close();
  });

  it('unsubscribe stops delivery to that handler only, including what was published but not yet delivered', async () => {
    const bus = createMemoryBus();
    const got: string[] = [];
    const unsubscribe = bus.subscribe('agent.doorbell', (m) => got.push(`gone ${m.deviceIds.join()}`));
    bus.subscribe('agent.doorbell', (m) => got.push(`kept ${m.deviceIds.join()}`));
    await bus.publish('agent.doorbell', { deviceIds: [1] });
    await delivered();
    await bus.publish('agent.doorbell', { deviceIds: [2] });
    unsubscribe();
    await bus.publish('agent.doorbell', { deviceIds: [3] });
    await delivered();
    expect(got).toEqual(['gone 1', 'kept 1', 'kept 2', 'kept 3']);
    await bus.close();
  });

  it('close ends every subscription', async () => {
    const bus = createMemoryBus();
    const got: number[] = [];
    bus.subscribe('agent.doorbell', (m) => got.push(...m.deviceIds));
    await bus.close();
    await bus.publish('agent.doorbell', { deviceIds: [9] });
    await delivered();
    expect(got).toEqual([]);
  });
});

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
