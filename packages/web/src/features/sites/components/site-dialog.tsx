import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select, Textarea } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSaveSite } from '../api/sites';
import type { Site } from '../api/sites';
import { adminMessages } from '@outpost/contract/messages';
import { SITE_CODE_MAX, SITE_TIMEZONES } from '@outpost/contract/sites';
import {
  emptySiteForm,
  normaliseSiteCode,
  siteFormToBody,
  siteToForm,
  validateSiteForm,
} from '../lib/site-form';
import type { SiteForm } from '../lib/site-form';

// docs/product/administration.md#sites Create Site and Edit Site dialogs, #users 'Failed to create or
// update site' (the server's text preferred), docs/product/administration.md#sites timezones.
// Mounted while open (keyed by the site), so each opening starts from the site's values.
export function SiteDialog({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const toast = useToast();
  const save = useSaveSite();
  const [form, setForm] = useState<SiteForm>(() => (site ? siteToForm(site) : emptySiteForm));
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const id = (name: keyof SiteForm) => `${baseId}-${name}`;
  const isEdit = site !== null;

  const set = (key: keyof SiteForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError(null);
  };

  const submit = () => {
    const problem = validateSiteForm(form);
    if (problem) {
      setError(problem);
      return;
    }
    save.mutate(
      { id: site?.id, body: siteFormToBody(form, site) },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: isEdit ? 'Site updated' : 'Site created',
            message: `${saved.site_name} (${saved.site_code}) was ${isEdit ? 'updated' : 'created'}`,
          });
          onClose();
        },
        onError: (err) => setError(errorMessage(err, adminMessages.siteSaveFailed)),
      },
    );
  };

  const text = (key: keyof SiteForm, label: string, placeholder?: string) => (
    <Field label={label} htmlFor={id(key)}>
      <Input
        id={id(key)}
        autoComplete="off"
        placeholder={placeholder}
        value={form[key]}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title={isEdit ? 'Edit Site' : 'Create Site'}
      description="A site groups devices by location; users with specific site access see only their sites."
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="site-form" isLoading={save.isPending}>
            {isEdit ? 'Save Changes' : 'Create Site'}
          </Button>
        </>
      }
    >
      <form
        id="site-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <div className="grid gap-4 sm:grid-cols-3">
          <div className="sm:col-span-2">
            <Field label="Site Name" htmlFor={id('site_name')} required>
              <Input
                id={id('site_name')}
                autoComplete="off"
                placeholder="Headquarters"
                value={form.site_name}
                onChange={(e) => set('site_name', e.target.value)}
              />
            </Field>
          </div>
          <Field
            label="Site Code"
            htmlFor={id('site_code')}
            required
            hint={`Up to ${SITE_CODE_MAX} letters and digits`}
          >
            <Input
              id={id('site_code')}
              autoComplete="off"
              placeholder="HQ"
              className="font-mono uppercase"
              value={form.site_code}
              onChange={(e) => set('site_code', normaliseSiteCode(e.target.value))}
            />
          </Field>
        </div>
        <Field label="Description" htmlFor={id('description')}>
          <Textarea
            id={id('description')}
            rows={2}
            className="min-h-16"
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        {text('address', 'Address', '350 Fifth Avenue')}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('city', 'City')}
          {text('state', 'State / Region')}
          {text('country', 'Country')}
          {text('postal_code', 'Postal Code')}
        </div>
        <Field label="Timezone" htmlFor={id('timezone')}>
          <Select id={id('timezone')} value={form.timezone} onChange={(e) => set('timezone', e.target.value)}>
            <option value="">Not set</option>
            {SITE_TIMEZONES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label} ({t.value})
              </option>
            ))}
            {form.timezone !== '' && !SITE_TIMEZONES.some((t) => t.value === form.timezone) && (
              <option value={form.timezone}>{form.timezone}</option>
            )}
          </Select>
        </Field>
      </form>
    </Dialog>
  );
}
