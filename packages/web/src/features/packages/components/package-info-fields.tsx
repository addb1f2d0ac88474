import type { FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { SiteOption } from '@outpost/contract/devices';
import { packageMessages as messages } from '@outpost/contract/messages';
import { ARCHITECTURES } from '@outpost/contract/packages';
import { Badge } from '../../../components/ui/badge';
import { Card, CardHeader } from '../../../components/ui/card';
import { Checkbox, Field, Input, Select, Textarea } from '../../../components/ui/form';
import type { PackageInfo } from '../lib/builder-state';

// docs/product/packages.md#builder — name, description, os_version_requirement (optional free text),
// architecture (x64, x86 or arm64, default x64), package_version (default 1.0.0). The target OS is
// Windows (the default) or Linux; macOS is listed as future (docs/architecture.md "Package targets").

export function PackageInfoFields({
  form,
  isDisabled,
  sites,
  isSiteLimited,
  windowsOnlySteps,
}: {
  form: UseFormReturn<PackageInfo>;
  isDisabled?: boolean;
  /** the sites the package may belong to (SECURITY.md R2-5) */
  sites: SiteOption[];
  /** a site-limited member's package belongs to one of their sites, never to all */
  isSiteLimited: boolean;
  /** steps that run on Windows only: while there are any, Linux cannot be chosen */
  windowsOnlySteps: string[];
}) {
  const { register, formState } = form;
  return (
    <fieldset disabled={isDisabled} className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <Field label="Package Name" required htmlFor="package-name" error={formState.errors.name?.message}>
          <Input
            id="package-name"
            placeholder="e.g. 7-Zip 24.09 (x64)"
            autoComplete="off"
            aria-invalid={Boolean(formState.errors.name)}
            {...register('name')}
          />
        </Field>
      </div>
      <div className="sm:col-span-2">
        <Field label="Description" htmlFor="package-description">
          <Textarea
            id="package-description"
            rows={2}
            placeholder="What the package installs or changes, and for whom"
            {...register('description')}
          />
        </Field>
      </div>
      <Field
        label="Target OS"
        htmlFor="package-os"
        hint={
          windowsOnlySteps.length > 0
            ? `Linux is unavailable while the package has Windows-only steps (${windowsOnlySteps.join(', ')}). macOS support is coming in a future release.`
            : 'The package is offered only to devices of this OS. macOS support is coming in a future release.'
        }
      >
        <Select id="package-os" {...register('target_os')}>
          <option value="windows">Windows</option>
          <option value="linux" disabled={windowsOnlySteps.length > 0}>
            Linux
          </option>
          <option value="macos" disabled>
            macOS (coming soon)
          </option>
        </Select>
      </Field>
      <Field
        label="OS Version Requirement"
        htmlFor="package-os-version"
        hint="Optional, for example Windows 10 1903+"
        error={formState.errors.os_version_requirement?.message}
      >
        <Input
          id="package-os-version"
          placeholder="Windows 10 1903+"
          {...register('os_version_requirement')}
        />
      </Field>
      <Field label="Architecture" htmlFor="package-architecture">
        <Select id="package-architecture" {...register('architecture')}>
          {ARCHITECTURES.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        label="Package Version"
        htmlFor="package-version"
        error={formState.errors.package_version?.message}
      >
        <Input id="package-version" placeholder="1.0.0" {...register('package_version')} />
      </Field>
      <div className="sm:col-span-2">
        <Field
          label="Site"
          htmlFor="package-site"
          hint={
            isSiteLimited
              ? 'Your packages belong to one of your sites and deploy only to its devices.'
              : 'A package for one site deploys only to its devices and its members may change it. A package for all sites only administrators of all sites may change.'
          }
        >
          <Select id="package-site" {...register('site_id')}>
            <option value="" disabled={isSiteLimited}>
              {messages.tenantWideLabel}
            </option>
            {sites.map((site) => (
              <option key={site.id} value={String(site.id)}>
                {site.site_name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="sm:col-span-2">
        <Checkbox
          label="Template: a starting point to duplicate for new packages"
          {...register('is_template')}
        />
      </div>
    </fieldset>
  );
}

/** The builder's first card: the package information form. */
export function PackageInfoCard({
  onSubmit,
  ...fields
}: Parameters<typeof PackageInfoFields>[0] & { onSubmit: (e: FormEvent<HTMLFormElement>) => void }) {
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <Badge tone="indigo">Step 1 of 2</Badge> Package information
          </span>
        }
        description="Name the package and say where it applies."
      />
      <div className="px-5 py-5">
        <form onSubmit={onSubmit} noValidate>
          <PackageInfoFields {...fields} />
        </form>
      </div>
    </Card>
  );
}
