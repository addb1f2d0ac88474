import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPLOY_NGINX_CONF, clusterNginxConfig, parseNginx, printNginx } from './nginx.mjs';

// The config generator behind `npm run cluster` and the cluster test (nginx -t and the full path
// through nginx are in packages/server/src/cluster.int.test.ts).
describe('nginx config', () => {
  it('parses and prints back what nginx reads: blocks, quoted arguments, no comments', () => {
    const text = `# a comment
map $http_upgrade $c {   # trailing
    default upgrade;
    ''      '';
}
server { listen 80; location = /x { return 200 "a; {b}"; } }
`;
    const parsed = parseNginx(text);
    expect(parsed).toEqual([
      {
        name: 'map',
        args: ['$http_upgrade', '$c'],
        block: [
          { name: 'default', args: ['upgrade'] },
          { name: "''", args: ["''"] },
        ],
      },
      {
        name: 'server',
        args: [],
        block: [
          { name: 'listen', args: ['80'] },
          { name: 'location', args: ['=', '/x'], block: [{ name: 'return', args: ['200', '"a; {b}"'] }] },
        ],
      },
    ]);
    expect(parseNginx(printNginx(parsed))).toEqual(parsed);
  });

  it('refuses unbalanced braces and unterminated directives', () => {
    expect(() => parseNginx('server { listen 80;')).toThrow('missing "}"');
    expect(() => parseNginx('listen 80; }')).toThrow('unexpected "}"');
    expect(() => parseNginx('server { listen 80 }')).toThrow('not terminated');
  });

  it('keeps every location of deploy/nginx.conf and replaces only the listen address, upstreams, TLS and log file', () => {
    const source = fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8');
    const generated = parseNginx(
      clusterNginxConfig({
        listen: '127.0.0.1:3000',
        upstreams: ['127.0.0.1:4001', '127.0.0.1:4002'],
        accessLog: '/tmp/outpost-access.log',
      }),
    );
    const http = generated.find((d) => d.name === 'http')!.block!;
    const servers = http.filter((d) => d.name === 'server');
    expect(servers).toHaveLength(1);
    const deployed = parseNginx(source).filter(
      (d) => d.name === 'server' && !d.block!.some((x) => x.name === 'return'),
    );
    const drop = (block: { name: string }[]) =>
      block.filter((d) => !['listen', 'access_log'].includes(d.name) && !d.name.startsWith('ssl_'));
    expect(drop(servers[0]!.block!)).toEqual(drop(deployed[0]!.block!));
    expect(servers[0]!.block!.filter((d) => d.name === 'listen')).toEqual([
      { name: 'listen', args: ['127.0.0.1:3000'] },
    ]);
    expect(servers[0]!.block!.filter((d) => d.name === 'access_log')).toEqual([
      { name: 'access_log', args: ['/tmp/outpost-access.log', 'outpost'] },
    ]);
    const upstream = http.find((d) => d.name === 'upstream')!;
    expect(upstream.block!.filter((d) => d.name === 'server').map((d) => d.args[0])).toEqual([
      '127.0.0.1:4001',
      '127.0.0.1:4002',
    ]);
  });

  it('fails loudly when deploy/nginx.conf loses the shape the generator relies on', () => {
    const source = fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8');
    const options = { listen: '127.0.0.1:3000', upstreams: ['127.0.0.1:4001'] };
    expect(() =>
      clusterNginxConfig({ ...options, source: `${source}\nupstream other { server 10.0.0.1; }` }),
    ).toThrow('expected one upstream block');
    expect(() =>
      clusterNginxConfig({
        ...options,
        source: `${source}\nserver { listen 8080; location / { proxy_pass http://outpost; } }`,
      }),
    ).toThrow('expected one proxying server block');
  });
});
