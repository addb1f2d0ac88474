import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of docs/architecture.md are enforced by the lint config: these cases
// prove the rules fire, so a config change that silently disables them fails here.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({
  cwd: root,
  // Only the import rules: type information is not needed to judge an import path.
  ruleFilter: ({ ruleId }) => ['boundaries/dependencies', 'no-restricted-imports'].includes(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.message);
}

// The first lint loads the whole lint config and its plugins: seconds on a loaded machine.
describe('lint import boundaries', { timeout: 30_000 }, () => {
  it('refuses a web feature importing another feature', async () => {
    const errors = await boundaryErrors(
      'packages/web/src/features/agents/pages/probe.ts',
      "import { DashboardPage } from '../../dashboard/pages/dashboard-page';\nexport const probe = DashboardPage;\n",
    );
    expect(errors).toEqual([expect.stringContaining('never imports another feature')]);
  });

  it('allows a feature to import its own files and the shared kit', async () => {
    const errors = await boundaryErrors(
      'packages/web/src/features/agents/pages/probe.ts',
      "import { Button } from '../../../components/ui/button';\nexport const probe = Button;\n",
    );
    expect(errors).toEqual([]);
  });

  it('refuses lib/ importing a feature', async () => {
    const errors = await boundaryErrors(
      'packages/web/src/lib/probe.ts',
      "import { DashboardPage } from '../features/dashboard/pages/dashboard-page';\nexport const probe = DashboardPage;\n",
    );
    expect(errors).toEqual([expect.stringContaining('never import features')]);
  });

  it("refuses a server module importing another module's queries", async () => {
    const errors = await boundaryErrors(
      'packages/server/src/modules/packages/probe.ts',
      "import * as probe from '../devices/devices.queries';\nexport { probe };\n",
    );
    expect(errors).toEqual([expect.stringContaining('through its service')]);
  });

  it('refuses drizzle outside a queries file', async () => {
    const errors = await boundaryErrors(
      'packages/server/src/modules/devices/probe.service.ts',
      "import { eq } from 'drizzle-orm';\nexport const probe = eq;\n",
    );
    expect(errors).toEqual([expect.stringContaining('*.queries.ts of the module that owns the table')]);
  });

  it('refuses the schema outside a queries file, live/ included', async () => {
    const errors = await boundaryErrors(
      'packages/server/src/live/probe.ts',
      "import { devices } from '../db/schema/index';\nexport const probe = devices;\n",
    );
    expect(errors).toEqual([expect.stringContaining('*.queries.ts of the module that owns the table')]);
  });

  it('allows drizzle and the schema in a queries file', async () => {
    const errors = await boundaryErrors(
      'packages/server/src/modules/devices/probe.queries.ts',
      "import { eq } from 'drizzle-orm';\nimport { devices } from '../../db/schema/index';\nexport const probe = [eq, devices];\n",
    );
    expect(errors).toEqual([]);
  });

  it('refuses live/ importing a module, its services included', async () => {
    const errors = await boundaryErrors(
      'packages/server/src/live/probe.ts',
      "import { createDevicesService } from '../modules/devices/devices.service';\nexport const probe = createDevicesService;\n",
    );
    expect(errors).toEqual([expect.stringContaining('live/ sits below the modules')]);
  });

  it('allows a live/ test to set up through a module', async () => {
    const errors = await boundaryErrors(
      'packages/server/src/live/probe.int.test.ts',
      "import { createDevicesService } from '../modules/devices/devices.service';\nexport const probe = createDevicesService;\n",
    );
    expect(errors).toEqual([]);
  });

  it('refuses production code importing a test helper', async () => {
    const errors = await boundaryErrors(
      'packages/agent/src/steps/probe.ts',
      "import { makeZip } from '../../test/support/steps';\nexport const probe = makeZip;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Only tests import packages/*/test/')]);
  });

  it('allows a test beside the code to use its package’s test helpers', async () => {
    const errors = await boundaryErrors(
      'packages/agent/src/steps/probe.test.ts',
      "import { makeZip } from '../../test/support/steps';\nexport const probe = makeZip;\n",
    );
    expect(errors).toEqual([]);
  });
});
