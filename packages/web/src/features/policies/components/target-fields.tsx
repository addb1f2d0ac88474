import { Field, Select } from '../../../components/ui/form';
import type { GroupOption } from '../api/policies';
import type { PolicyForm } from '../lib/policy-form';

/** What the target inputs read of a policy form (the automation and the monitoring dialogs). */
type TargetForm = Pick<PolicyForm, 'target_type' | 'site_id' | 'group_id'>;

// The target inputs of the policy dialog (docs/product/device-sets.md#automation-policies): all
// devices (administrators of all sites), a site, or a group (when the server has groups).
export function TargetFields({
  form,
  idOf,
  onChange,
  mayTargetTenant,
  sites,
  groups,
  errors,
}: {
  form: TargetForm;
  idOf: (name: string) => string;
  onChange: (patch: Partial<TargetForm>) => void;
  mayTargetTenant: boolean;
  sites: { id: number; site_name: string; site_code: string }[];
  groups: GroupOption[] | null;
  /** messages under the site and group selects */
  errors?: Partial<Record<'site_id' | 'group_id', string>>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Target" htmlFor={idOf('target_type')} required>
        <Select
          id={idOf('target_type')}
          value={form.target_type}
          onChange={(e) => onChange({ target_type: e.target.value as PolicyForm['target_type'] })}
        >
          {mayTargetTenant && <option value="tenant">All devices</option>}
          <option value="site">A site</option>
          {groups !== null && <option value="group">A group</option>}
        </Select>
      </Field>
      {form.target_type === 'site' && (
        <Field label="Site" htmlFor={idOf('site_id')} error={errors?.site_id} required>
          <Select
            id={idOf('site_id')}
            value={form.site_id}
            onChange={(e) => onChange({ site_id: e.target.value })}
          >
            <option value="">Choose a site…</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.site_name} ({s.site_code})
              </option>
            ))}
          </Select>
        </Field>
      )}
      {form.target_type === 'group' && (
        <Field label="Group" htmlFor={idOf('group_id')} error={errors?.group_id} required>
          <Select
            id={idOf('group_id')}
            value={form.group_id}
            onChange={(e) => onChange({ group_id: e.target.value })}
          >
            <option value="">Choose a group…</option>
            {(groups ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </div>
  );
}
