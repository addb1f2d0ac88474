import fs from 'node:fs';
import path from 'node:path';
import type { AckedAgentMessage } from '@outpost/contract/agent-protocol';

// Results and other messages the server must not miss wait here until it acknowledges them, and
// are resent after every reconnect (docs/product/agent-protocol.md#commands: at-least-once, idempotent on the server).

export type Outbox = {
  put(message: AckedAgentMessage): void;
  remove(messageId: string): void;
  list(): AckedAgentMessage[];
};

export function createMemoryOutbox(): Outbox {
  const items = new Map<string, AckedAgentMessage>();
  return {
    put: (m) => void items.set(m.messageId, m),
    remove: (id) => void items.delete(id),
    list: () => [...items.values()],
  };
}

const safeName = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');

/** One file per message (written atomically, mode 0600), listed in the order they were written. */
export function createFileOutbox(dir: string): Outbox {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let seq = 0;
  const fileOf = new Map<string, string>();
  return {
    put(m) {
      const name = `${Date.now().toString().padStart(15, '0')}-${String(seq++).padStart(6, '0')}-${safeName(m.messageId)}.json`;
      const tmp = path.join(dir, `.${name}.tmp`);
      fs.writeFileSync(tmp, JSON.stringify(m), { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      fileOf.set(m.messageId, name);
    },
    remove(id) {
      const name = fileOf.get(id) ?? fs.readdirSync(dir).find((f) => f.endsWith(`-${safeName(id)}.json`));
      if (name) {
        fs.rmSync(path.join(dir, name), { force: true });
        fileOf.delete(id);
      }
    },
    list() {
      const out: AckedAgentMessage[] = [];
      for (const name of fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()) {
        try {
          const m = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as AckedAgentMessage;
          fileOf.set(m.messageId, name);
          out.push(m);
        } catch {
          fs.rmSync(path.join(dir, name), { force: true });
        }
      }
      return out;
    },
  };
}
