import { useEffect, useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { defaultRolloutValues, rolloutPlan } from '../../../components/rollout/rollout-form';
import type { RolloutFormHost } from '../../../components/rollout/rollout-form';
import { RolloutSection } from '../../../components/rollout/rollout-section';
import { useRolloutRules } from '../../../components/rollout/use-rollout-rules';
import type { useUpdateFlow } from './update-agents';

// Update Selected's confirmation (docs/product/administration.md, agent updates): with the
// Rollout section, the same as the deploy dialog's, collapsed and off by default; on, the agents
// update in waves (docs/product/rollouts.md#agent-updates-in-waves).

export function UpdateAgentsDialog({ flow }: { flow: ReturnType<typeof useUpdateFlow> }) {
  const rows = flow.toUpdate;
  const formId = useId();
  const form = useForm<RolloutFormHost>({ defaultValues: { rollout: defaultRolloutValues() } });
  const values = useWatch({ control: form.control, name: 'rollout' });
  const rules = useRolloutRules(values, () => undefined);
  const isOpen = rows !== null;
  useEffect(() => {
    if (isOpen) {
      form.reset({ rollout: defaultRolloutValues() });
    }
  }, [isOpen, form]);

  const submit = () => {
    const plan = rolloutPlan(values ?? defaultRolloutValues());
    if (plan && rules.isBroken) {
      rules.showRules();
      return;
    }
    flow.confirm(plan);
  };

  return (
    <Dialog
      isOpen={isOpen}
      onClose={flow.cancel}
      title={rows && rows.length > 1 ? `Update ${rows.length} agents?` : 'Update agent?'}
      isDismissDisabled={flow.isBusy}
      footer={
        <>
          <Button onClick={flow.cancel} disabled={flow.isBusy}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} isLoading={flow.isBusy}>
            {values?.isOn ? 'Update in waves' : 'Update'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {rows && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {rows.length > 1 ? `${rows.length} agents` : (rows[0]!.hostname ?? 'The agent')} will download the
            agent published for their OS, check its SHA-256 and restart as the new version; an agent whose new
            version cannot start or connect goes back to the old one. Agents that are offline or already up to
            date are skipped.
          </p>
        )}
        <RolloutSection
          form={form}
          values={values}
          formId={formId}
          isDisabled={flow.isBusy}
          problems={rules.shown}
          switchLabel="Update in waves"
          hasWindowsOption={false}
        />
      </form>
    </Dialog>
  );
}
