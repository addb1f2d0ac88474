// Two parts of an API request alone, in this process (api.ts measures whole requests), the code
// before and after docs/decisions/2026-11-27-api-hot-path.md, as CPU per call:
// - the device list page's rows: drizzle's mapping + toListItem, and listItemOfRow from the
//   driver's array rows (lib/db withRowMapper), for a 20-row page;
// - the request's logger: pino's child({ reqId }) with the server's logger options (its bindings
//   serialised through the redaction), and lib/logger's requestLoggerFactory.
// On a loaded machine a whole request's throughput moves by more than these differences; the CPU
// of one call of the same work does not.
//
//   npx tsx bench/api-hot-parts.ts
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { loggerOptions, requestLoggerFactory } from '../packages/server/src/lib/logger';
import * as drizzleUtils from 'drizzle-orm/utils';
import {
  deviceListColumns,
  listItemOfRow,
  toListItem,
} from '../packages/server/src/modules/devices/devices.queries';
import type { DeviceListSelection } from '../packages/server/src/modules/devices/devices.queries';

// the page statement's columns, as drizzle's select orders them, and rows as pg sends them
const columns = { ...deviceListColumns, total: sql<number>`0` };
const fields = Object.entries(columns).map(([key, field]) => ({ path: [key], field }));
const row = (i: number) => [
  ...[i, '7c9e6679-7425-40de-944b-e07fc1f90ae7', 7, `PC-${i}`, '10.0.0.1', 'windows', '10.0.19045'],
  ...['x64', 'online', '2026-11-27 18:00:00.123456+00', '3.1.0', 2, 'Site 2', `SN${i}`],
  ...['2026-11-20 10:00:00.5+00', '2026-11-27 18:00:00.123456+00', 'Dell', 'Latitude', null, 10_000],
];
const rows = Array.from({ length: 20 }, (_, i) => row(i));
// a left join: drizzle keeps, per joined table, whether all its columns were null
const joins = { devices: true, sites: false };
// drizzle's own row mapping (not in its typings' exports, there at run time)
const { mapResultRow } = drizzleUtils as unknown as {
  mapResultRow: (fields: unknown, row: unknown[], joins: unknown) => unknown;
};
const viaDrizzle = () => rows.map((r) => toListItem(mapResultRow(fields, r, joins) as DeviceListSelection));
const viaRows = () => rows.map(listItemOfRow);
if (JSON.stringify(viaDrizzle()) !== JSON.stringify(viaRows())) {
  throw new Error('the two mappings differ');
}
const cpuMicros = (work: () => unknown, n = 50_000) => {
  for (let i = 0; i < 20_000; i++) {
    work();
  }
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    work();
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / n).toFixed(1);
};
const logger = pino(
  loggerOptions('warn') as pino.LoggerOptions,
  new Writable({ write: (_chunk, _encoding, done) => done() }),
);
let id = 0;
const pinoChild = () => logger.child({ reqId: `req-${(id++).toString(36)}` }, {});
const factoryChild = () =>
  (requestLoggerFactory as unknown as (l: pino.Logger, b: object, o: object) => unknown)(
    logger,
    { reqId: `req-${(id++).toString(36)}` },
    {},
  );
for (let round = 1; round <= 3; round++) {
  console.log(
    `round ${round}: 20-row page, drizzle mapping + toListItem ${cpuMicros(viaDrizzle)} µs CPU, ` +
      `listItemOfRow ${cpuMicros(viaRows)} µs CPU; request logger, pino child({ reqId }) ` +
      `${cpuMicros(pinoChild, 200_000)} µs, requestLoggerFactory ${cpuMicros(factoryChild, 200_000)} µs`,
  );
}
