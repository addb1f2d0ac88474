import type { AckedAgentMessage, AgentMessage, ChecksMessage } from '@outpost/contract/agent-protocol';
import type { Logger } from '../connection';
import { CheckScheduler } from './check-scheduler';
import type { Monitor, Ticker } from './monitor';
import { METRICS_INTERVAL_MS, createIntervalTicker } from './monitor';

// The agent's side of monitoring (docs/product/monitoring.md#checks): the check set the server
// sends runs on the shared tick, state changes go out through the outbox (acknowledged, kept
// across reconnects), and a metrics sample goes out once a minute while connected (never queued).

export type MonitoringPort = {
  readonly state: string;
  send(message: AgentMessage): void;
  sendReliable(message: AckedAgentMessage): void;
};

export type MonitoringOptions = {
  monitor: Monitor;
  /** the fleet's shared tick; the agent's own one-second tick without it */
  ticker?: Ticker;
  random?: () => number;
  log?: Logger;
  newId: () => string;
};

export type AgentMonitoring = {
  onChecks(message: ChecksMessage): void;
  start(): void;
  stop(): void;
  /** the revision of the check set running now (null before the first `checks`) */
  readonly revision: string | null;
  readonly checkCount: number;
};

export function createAgentMonitoring(port: MonitoringPort, options: MonitoringOptions): AgentMonitoring {
  const { monitor } = options;
  const random = options.random ?? Math.random;
  const scheduler = new CheckScheduler({
    evaluate: (check, now) => monitor.evaluate(check, now),
    send: (results) => port.sendReliable({ type: 'check_results', messageId: options.newId(), results }),
    random,
  });
  let revision: string | null = null;
  let removeListener: (() => void) | null = null;
  // each agent's minute starts at its own second, so a fleet's samples do not arrive together
  let nextMetricsAt = Infinity;
  let now = Date.now();

  const sendMetrics = (at: number) => {
    // a server that knows monitoring sends `checks` after every welcome; one that never did
    // (an older server) would refuse a metrics message it does not know
    if (port.state !== 'connected' || revision === null) {
      return;
    }
    const sample = monitor.metrics(at);
    const send = (s: Awaited<typeof sample>) => {
      if (s) {
        port.send({ type: 'metrics', ...s });
      }
    };
    if (sample instanceof Promise) {
      sample.then(send).catch((err: unknown) => options.log?.warn('metrics failed', { err: String(err) }));
    } else {
      send(sample);
    }
  };

  const onTick = (at: number) => {
    now = at;
    monitor.tick?.(at);
    scheduler.tick(at);
    if (at >= nextMetricsAt) {
      nextMetricsAt = Math.max(nextMetricsAt + METRICS_INTERVAL_MS, at + METRICS_INTERVAL_MS / 2);
      sendMetrics(at);
    }
  };

  return {
    get revision() {
      return revision;
    },
    get checkCount() {
      return scheduler.size;
    },
    onChecks(message) {
      revision = message.revision;
      scheduler.replace(message.checks, Math.max(now, Date.now()));
    },
    start() {
      if (removeListener) {
        return;
      }
      now = Date.now();
      nextMetricsAt = now + Math.floor(random() * METRICS_INTERVAL_MS);
      removeListener = (options.ticker ?? createIntervalTicker()).add(onTick);
    },
    stop() {
      removeListener?.();
      removeListener = null;
      scheduler.stop();
      monitor.stop?.();
    },
  };
}
