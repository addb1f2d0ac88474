import { createDemo } from '../../src/modules/demo/demo';
import { DEMO } from '../../src/modules/demo/demo.seed';
import { startTestServer } from '../harness';

// The embedded demo as `npm start` runs it, for the tests of what the demo makes: a server, the
// demo seeded, its simulated fleet online, and the demo administrator's GET of /api/customer.

export async function startDemoWithFleet(devices: number) {
  const server = await startTestServer({ env: { OUTPOST_DEMO_DEVICES: String(devices) } });
  const demo = createDemo(server.config, server.database, server.app.log);
  await demo.seed();
  await demo.startFleet(server.url, server.app.demoSets);
  const token = (await server.devSignIn(DEMO.adminEmail)).token;
  return {
    server,
    demo,
    /** the `data` of a GET under /api/customer, as the demo administrator */
    get: async <T>(path: string) =>
      (await server.request<{ data: T }>('GET', `/api/customer${path}`, { token })).body.data,
    async close() {
      await demo.stop();
      await server.close();
    },
  };
}
