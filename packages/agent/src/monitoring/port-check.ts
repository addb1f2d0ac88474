import net from 'node:net';
import type { CheckConfig } from '@outpost/contract/checks';
import type { CheckEvaluation } from './monitor';

// A port check (docs/product/monitoring.md#checks): a TCP connection to host:port that must be
// accepted within the timeout; `localhost` is a port on the device itself. Nothing is sent.

export function portEvaluation(
  config: Extract<CheckConfig, { type: 'port' }>,
  now: () => number = Date.now,
): Promise<CheckEvaluation> {
  const target = `${config.host}:${config.port}`;
  const started = now();
  return new Promise((resolve) => {
    const socket = net.connect({ host: config.host, port: config.port });
    const done = (result: CheckEvaluation) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => done({ state: 'failing', output: `${target} did not answer within ${config.timeout_ms} ms` }),
      config.timeout_ms,
    );
    socket.once('connect', () =>
      done({ state: 'passing', output: `${target} answered in ${Math.max(0, now() - started)} ms` }),
    );
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done({ state: 'failing', output: `${target} ${connectError(err)}` }),
    );
  });
}

function connectError(err: NodeJS.ErrnoException): string {
  switch (err.code ?? '') {
    case 'ECONNREFUSED':
      return 'refused the connection (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'could not be found (the name does not resolve)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'cannot be reached from this device';
  }
  return `could not be reached (${err.code ?? err.message})`;
}
