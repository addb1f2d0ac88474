// Types of scripts/nginx.mjs for the TypeScript tests that use it.
export type Directive = { name: string; args: string[]; block?: Directive[] };

export const DEPLOY_NGINX_CONF: string;
export function parseNginx(text: string): Directive[];
export function printNginx(directives: Directive[], depth?: number): string;
export function clusterNginxConfig(options: {
  listen: string;
  upstreams: string[];
  pinned?: { listen: string; upstream: string }[];
  source?: string;
  accessLog?: string;
}): string;
export function deployNginxConfig(options: {
  certificate: string;
  certificateKey: string;
  source?: string;
}): string;
export function findNginx(): string | null;
export function ensureNginx(): string | null;
export function freePort(): Promise<number>;
export function testNginxConfig(config: string, nginx?: string | null): { ok: boolean; output: string };
export type RunningNginx = {
  prefix: string;
  configFile: string;
  pid: number | undefined;
  exited: Promise<number | string | null>;
  stop(): Promise<void>;
};
export function startNginx(options: {
  config: string;
  ports: number[];
  nginx?: string;
  onOutput?: (text: string) => void;
}): Promise<RunningNginx>;
