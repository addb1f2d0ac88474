// The storm of bench/browser-storm.ts, in its own process: device_update events published on the
// server's Redis bus (topic 'portal'), the path an event takes when another instance's agent hub
// publishes it (live/portal-socket.ts publish → bus-redis.ts → this instance's fan-out →
// the browser's websocket). Published a few every 10 ms, so the rate is even, for `seconds`.
//
//   node --import tsx bench/browser-storm-feed.ts --redis URL --channel PREFIXportal --tenant N
//        --devices FILE (JSON [{guid, id, siteId}]) --rate 1000 --seconds 30 --mix flip|seen
// Prints "storm: publishing" when it starts, then one JSON line {"sent","seconds"} at the end.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';

const { values } = parseArgs({
  options: {
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    channel: { type: 'string' },
    tenant: { type: 'string' },
    devices: { type: 'string' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '30' },
    // flip: every event changes the row's status (online ↔ loggedin) and last seen;
    // seen: the status stays, last seen and the address change
    mix: { type: 'string', default: 'flip' },
  },
});
if (!values.channel || !values.tenant || !values.devices) {
  throw new Error('--channel, --tenant and --devices are required');
}
const channel = values.channel;
const tenantId = Number(values.tenant);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const devices = JSON.parse(fs.readFileSync(values.devices, 'utf8')) as {
  guid: string;
  id: number;
  siteId: number | null;
}[];
const counts = new Array<number>(devices.length).fill(0);

const redis = new Redis(values.redis, { maxRetriesPerRequest: 3 });
await redis.ping();

const event = (i: number) => {
  const d = devices[i]!;
  const n = ++counts[i]!;
  const flip = values.mix === 'flip';
  return JSON.stringify({
    tenantId,
    ...(d.siteId !== null && { siteId: d.siteId }),
    key: `device:${d.guid}`,
    event: {
      type: 'device_update',
      payload: {
        deviceId: d.guid,
        id: d.id,
        status: flip && n % 2 === 1 ? 'loggedin' : 'online',
        lastSeen: new Date().toISOString(),
        ...(!flip && { ipAddress: `10.9.${(i >> 8) & 255}.${n % 250}` }),
      },
    },
  });
};

console.log('storm: publishing');
const started = performance.now();
let sent = 0;
let next = 0;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    const due = Math.min(Math.round(elapsed * rate), Math.round(seconds * rate)) - sent;
    if (due > 0) {
      const pipeline = redis.pipeline();
      for (let k = 0; k < due; k++) {
        pipeline.publish(channel, event(next));
        next = (next + 1) % devices.length;
      }
      void pipeline.exec();
      sent += due;
    }
    if (elapsed >= seconds) {
      clearInterval(timer);
      resolve();
    }
  }, 10);
});
const took = (performance.now() - started) / 1000;
await redis.quit();
console.log(JSON.stringify({ sent, seconds: Number(took.toFixed(2)) }));
