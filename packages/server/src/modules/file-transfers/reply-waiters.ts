import type { AgentRemoteMessage, FileStatusMessage } from '@outpost/contract/agent-protocol';
import type { Bus } from '../../live/bus';

// The agents' answers for file transfer arrive on `remote.reply` (live/agent-remote.ts), on every
// instance: a listing's answer resolves the request this instance waits for (if it does); a
// transfer's status goes to `onStatus` on every instance, where a conditional update lets exactly
// one of them act on it.

export type ReplyWaiters = {
  /** resolves with the answer of `deviceId`'s agent under `key`, or null after `timeoutMs` */
  wait(key: string, deviceId: number, timeoutMs: number): Promise<AgentRemoteMessage | null>;
  start(): void;
  stop(): void;
};

export function createReplyWaiters(
  bus: Pick<Bus, 'subscribe'>,
  onStatus: (deviceId: number, message: FileStatusMessage) => void,
): ReplyWaiters {
  const waiting = new Map<
    string,
    { deviceId: number; resolve: (message: AgentRemoteMessage | null) => void }
  >();
  let unsubscribe: (() => void) | null = null;

  return {
    wait(key, deviceId, timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve(null);
        }, timeoutMs);
        waiting.set(key, {
          deviceId,
          resolve: (message) => {
            clearTimeout(timer);
            waiting.delete(key);
            resolve(message);
          },
        });
      });
    },
    start() {
      unsubscribe ??= bus.subscribe('remote.reply', ({ key, deviceId, message }) => {
        if (message.type === 'file_status') {
          onStatus(deviceId, message);
        } else if (message.type === 'fs_list_result') {
          const waiter = waiting.get(key);
          // only the device that was asked answers a listing
          if (waiter?.deviceId === deviceId) {
            waiter.resolve(message);
          }
        }
      });
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      for (const waiter of [...waiting.values()]) {
        waiter.resolve(null);
      }
    },
  };
}
