// The fleet benchmark's browsers: SOCKETS portal sockets (WS /api/ws) in their own process, each
// subscribed to one device, printing the wall-clock time each device_update arrives:
//   U <socket> <status> <epoch ms>
// Env: BASE (http://127.0.0.1:port), TENANT_ID, USER_ID, TOKEN, DEVICE_GUID, SOCKETS (100).
import WebSocket from 'ws';

const env = (k: string) => {
  const v = process.env[k];
  if (!v) {
    throw new Error(`${k} is required`);
  }
  return v;
};
const base = env('BASE').replace(/^http/, 'ws');
const count = Number(process.env.SOCKETS ?? '100');
const key = `device:${env('DEVICE_GUID')}`;
const query = new URLSearchParams({
  tenantId: env('TENANT_ID'),
  userId: env('USER_ID'),
  token: env('TOKEN'),
});
const sockets: WebSocket[] = [];
let out: string[] = [];
const flush = () => {
  if (out.length > 0) {
    process.stdout.write(out.join(''));
    out = [];
  }
};
setInterval(flush, 100);

await Promise.all(
  Array.from(
    { length: count },
    (_, i) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${base}/api/ws?${query.toString()}`);
        sockets.push(ws);
        ws.on('error', reject);
        ws.on('open', () =>
          ws.send(JSON.stringify({ type: 'subscribe', payload: { subscriptionKey: key } })),
        );
        ws.on('message', (data: Buffer) => {
          const at = performance.timeOrigin + performance.now();
          const m = JSON.parse(data.toString('utf8')) as { type: string; payload: { status?: string } };
          if (m.type === 'subscribed') {
            resolve();
          } else if (m.type === 'device_update') {
            out.push(`U ${i} ${m.payload.status} ${at.toFixed(2)}\n`);
          } else if (m.type === 'error') {
            reject(new Error(JSON.stringify(m.payload)));
          }
        });
      }),
  ),
);
console.log(`portal sockets ready: ${count}`);
process.on('SIGTERM', () => {
  flush();
  sockets.forEach((s) => s.terminate());
  process.exit(0);
});
