import { languageOsProblem, resolveRunValues } from '@outpost/contract/script-params';
import { SCRIPT_LIMITS, scriptMessages as messages } from '@outpost/contract/scripts';
import type { ScriptRunInput, ScriptRunSpec } from '@outpost/contract/scripts';
import type { StoredScriptParam } from './scripts.queries';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { loadOr404 } from './script-access';
import { toParamView } from './script-fields';
import type { ScriptRunCreated, ScriptRunner, ScriptRunTarget } from './script-runner';
import { setLastRunAt } from './scripts.queries';

// Starting a run of a script's current version (docs/product/scripts.md#running-a-script): the
// values are checked against the parameters' rules here, secrets stay sealed on their way into
// the run's spec, and the ScriptRunner (the deployments module) writes the job for the devices.

/** The sealed value of each secret parameter: the given value sealed, or the saved default. */
function sealedSecrets(
  params: readonly StoredScriptParam[],
  given: Record<string, string>,
  box: SecretBox,
): Record<string, string> {
  const sealed: Record<string, string> = {};
  for (const p of params) {
    if (p.type !== 'secret') {
      continue;
    }
    const value = given[p.name];
    if (value !== undefined && value !== '') {
      sealed[p.name] = box.seal(value);
      continue;
    }
    if (p.sealedDefault !== null) {
      if (box.open(p.sealedDefault) === null) {
        throw badRequest(messages.secretUnreadable(p.label || p.name), 'SECRET_UNREADABLE');
      }
      sealed[p.name] = p.sealedDefault;
    } else if (p.required) {
      throw badRequest(`${p.label || p.name} is required`, 'INVALID_PARAMETER');
    }
  }
  return sealed;
}

export function createScriptRunsService(deps: { db: Db; box: SecretBox; runner: ScriptRunner }) {
  const { db, box, runner } = deps;

  return {
    async run(ctx: RequestContext, id: number, input: ScriptRunInput): Promise<ScriptRunCreated> {
      const script = await loadOr404(db, ctx, id);
      const osProblem = languageOsProblem(script.language, script.os);
      if (osProblem) {
        throw badRequest(osProblem, 'LANGUAGE_NOT_FOR_OS');
      }
      const { values, problem } = resolveRunValues(script.params.map(toParamView), input.params);
      if (problem) {
        throw badRequest(problem.message, 'INVALID_PARAMETER');
      }
      const spec: ScriptRunSpec = {
        script_id: script.id,
        script_name: script.name,
        version: script.version,
        language: script.language,
        body: script.body,
        params: values,
        sealed_secrets: sealedSecrets(script.params, input.params, box),
        timeout_seconds: input.timeout_seconds ?? script.timeoutSeconds ?? SCRIPT_LIMITS.timeoutDefault,
        offline: input.offline,
      };
      const target: ScriptRunTarget =
        input.group_id !== undefined
          ? { groupId: input.group_id }
          : { deviceIds: [...new Set(input.device_ids)] };
      const created = await runner.create(ctx, spec, target);
      // the runner audits the run with its job (script, version, devices, values with secrets masked)
      await setLastRunAt(db, script.id);
      return created;
    },
  };
}
