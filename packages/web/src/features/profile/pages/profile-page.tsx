import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Bell, BarChart3, CreditCard, KeyRound, LogOut, Save, User } from 'lucide-react';
import { ProfileUpdateBody, roleLabel } from '@outpost/contract/auth';
import type { NotificationPrefs, SessionUser } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { SESSION_TOKEN_TTL_SECONDS } from '@outpost/contract/limits';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { Field, Input, Switch } from '../../../components/ui/form';
import { ComingSoon } from '../../../components/ui/states';
import { Tabs } from '../../../components/ui/tabs';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAuth, useUser } from '../../../lib/auth';
import { initials } from '../../../lib/format';
import { useUpdateProfile } from '../api/profile';

type TabKey = 'profile' | 'security' | 'notifications' | 'billing' | 'usage';
const tabs = [
  { key: 'profile' as const, label: 'Profile', icon: <User className="size-4" /> },
  { key: 'security' as const, label: 'Security', icon: <KeyRound className="size-4" /> },
  { key: 'notifications' as const, label: 'Notifications', icon: <Bell className="size-4" /> },
  { key: 'billing' as const, label: 'Billing', icon: <CreditCard className="size-4" /> },
  { key: 'usage' as const, label: 'Usage', icon: <BarChart3 className="size-4" /> },
];

function ProfileTab({ user }: { user: SessionUser }) {
  const update = useUpdateProfile();
  const toast = useToast();
  const form = useForm<ProfileUpdateBody>({
    resolver: zodResolver(ProfileUpdateBody),
    values: { name: user.name ?? '', company: user.company ?? '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => toast.show({ type: 'success', title: messages.profileSaved }),
      onError: (err) =>
        toast.show({
          type: 'error',
          title: 'Failed to save profile',
          message: errorMessage(err, 'Unknown error'),
        }),
    }),
  );
  return (
    <Card>
      <CardHeader
        title="Personal information"
        description="How you appear to your colleagues and in the audit log."
      />
      <form onSubmit={(e) => void onSubmit(e)} className="space-y-6 p-5">
        <div className="flex items-center gap-4">
          <span
            className="flex size-16 items-center justify-center rounded-full bg-indigo-600 text-xl font-semibold text-white"
            aria-label="Avatar"
          >
            {initials(user.name, user.email)}
          </span>
          <div className="text-sm text-slate-500 dark:text-slate-400">
            <p className="font-medium text-slate-900 dark:text-white">{user.name || 'User'}</p>
            <p>Your avatar shows your initials.</p>
          </div>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Name" htmlFor="profile-name" error={form.formState.errors.name?.message}>
            <Input id="profile-name" autoComplete="name" {...form.register('name')} />
          </Field>
          <Field
            label="Email"
            htmlFor="profile-email"
            hint="Your sign-in identity; it cannot be changed here."
          >
            <Input id="profile-email" value={user.email} readOnly disabled />
          </Field>
          <Field label="Company" htmlFor="profile-company" error={form.formState.errors.company?.message}>
            <Input id="profile-company" autoComplete="organization" {...form.register('company')} />
          </Field>
          <Field
            label="Role"
            htmlFor="profile-role"
            hint={`Your role in ${user.tenant_name}, set by an administrator.`}
          >
            <Input id="profile-role" value={roleLabel(user.role)} readOnly disabled />
          </Field>
        </div>
        <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button
            type="submit"
            variant="primary"
            isLoading={update.isPending}
            icon={<Save className="size-4" />}
            disabled={!form.formState.isDirty}
          >
            Save changes
          </Button>
        </div>
      </form>
    </Card>
  );
}

function SecurityTab({ user }: { user: SessionUser }) {
  const { signOut } = useAuth();
  return (
    <Card>
      <CardHeader title="Sign-in and sessions" />
      <dl className="divide-y divide-slate-100 px-5 text-sm dark:divide-slate-800">
        <div className="flex justify-between gap-4 py-3.5">
          <dt className="text-slate-500 dark:text-slate-400">Sign-in identity</dt>
          <dd className="font-medium text-slate-900 dark:text-white">{user.email}</dd>
        </div>
        <div className="flex justify-between gap-4 py-3.5">
          <dt className="text-slate-500 dark:text-slate-400">Sign-in method</dt>
          <dd className="font-medium text-slate-900 dark:text-white">
            Google account (no password is stored by Outpost)
          </dd>
        </div>
        <div className="flex justify-between gap-4 py-3.5">
          <dt className="text-slate-500 dark:text-slate-400">Session length</dt>
          <dd className="font-medium text-slate-900 dark:text-white">
            {SESSION_TOKEN_TTL_SECONDS / 3600} hours, then sign in again
          </dd>
        </div>
      </dl>
      <div className="flex justify-end border-t border-slate-200 p-4 dark:border-slate-800">
        <Button onClick={signOut} icon={<LogOut className="size-4" />}>
          Sign out of this browser
        </Button>
      </div>
    </Card>
  );
}

const prefLabels: { key: keyof NotificationPrefs; label: string; description: string }[] = [
  { key: 'emailAlerts', label: 'Email alerts', description: 'Failed deployments and device errors.' },
  { key: 'agentDowntime', label: 'Agent downtime', description: 'When an agent stops reporting.' },
  { key: 'weeklyReports', label: 'Weekly reports', description: 'A summary of your fleet every Monday.' },
  { key: 'billing', label: 'Billing', description: 'Invoices and licence renewals.' },
];

function NotificationsTab({ user }: { user: SessionUser }) {
  const [prefs, setPrefs] = useState<NotificationPrefs>(user.notification_prefs);
  const update = useUpdateProfile();
  const toast = useToast();
  const isDirty = prefLabels.some(({ key }) => prefs[key] !== user.notification_prefs[key]);
  return (
    <Card>
      <CardHeader title="Notification preferences" description="Which e-mails Outpost may send you." />
      <div className="divide-y divide-slate-100 px-5 dark:divide-slate-800">
        {prefLabels.map(({ key, label, description }) => (
          <Switch
            key={key}
            label={label}
            description={description}
            checked={prefs[key]}
            onChange={(v) => setPrefs((p) => ({ ...p, [key]: v }))}
          />
        ))}
      </div>
      <div className="flex justify-end border-t border-slate-200 p-4 dark:border-slate-800">
        <Button
          variant="primary"
          disabled={!isDirty}
          isLoading={update.isPending}
          icon={<Save className="size-4" />}
          onClick={() =>
            update.mutate(
              { notification_prefs: prefs },
              {
                onSuccess: () => toast.show({ type: 'success', title: messages.profileSaved }),
                onError: (err) =>
                  toast.show({
                    type: 'error',
                    title: 'Failed to save preferences',
                    message: errorMessage(err, 'Unknown error'),
                  }),
              },
            )
          }
        >
          Save preferences
        </Button>
      </div>
    </Card>
  );
}

export default function ProfilePage() {
  const user = useUser();
  const [tab, setTab] = useState<TabKey>('profile');
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Account settings"
        description="Your profile, security and notification preferences."
      />
      <Tabs tabs={tabs} active={tab} onChange={setTab} />
      <div className="mt-6">
        {tab === 'profile' && <ProfileTab user={user} />}
        {tab === 'security' && <SecurityTab user={user} />}
        {tab === 'notifications' && <NotificationsTab user={user} />}
        {tab === 'billing' && (
          <ComingSoon
            feature="Billing"
            details="Invoices, payment methods and plan changes will be managed here."
          />
        )}
        {tab === 'usage' && (
          <ComingSoon
            feature="Usage reporting"
            details="Agent counts and deployment volume over time will be charted here."
          />
        )}
      </div>
    </div>
  );
}
