import { Monitor, Rocket, ShieldCheck } from 'lucide-react';

const highlights = [
  {
    icon: Monitor,
    title: 'Every device, live',
    text: 'Status, hardware, network, software and services as they change.',
  },
  {
    icon: Rocket,
    title: 'Deploy with confidence',
    text: 'Ordered install steps, now or on schedule, with per-device logs.',
  },
  {
    icon: ShieldCheck,
    title: 'Built for teams',
    text: 'Organisations, sites, roles and a full audit trail.',
  },
];

/** The sign-in page's left half on wide windows: the product and what it offers. */
export function BrandPanel() {
  return (
    <div className="relative hidden w-[44%] flex-col justify-between overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-700 p-12 text-white lg:flex">
      <div className="absolute -top-24 -right-24 size-96 rounded-full bg-white/10 blur-3xl" aria-hidden />
      <div className="absolute bottom-0 left-0 size-72 rounded-full bg-violet-400/20 blur-3xl" aria-hidden />
      <div className="relative flex items-center gap-3">
        <img src="/favicon.svg" alt="" className="size-10 rounded-lg ring-2 ring-white/30" />
        <span className="text-xl font-bold tracking-tight">Outpost</span>
      </div>
      <div className="relative space-y-8">
        <h2 className="max-w-md text-3xl leading-tight font-semibold">
          Remote device management for the whole organisation.
        </h2>
        <ul className="space-y-5">
          {highlights.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/15 ring-1 ring-white/20">
                <Icon className="size-5" />
              </span>
              <span>
                <span className="block font-medium">{title}</span>
                <span className="block text-sm text-indigo-100">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className="relative text-xs text-indigo-200">© {new Date().getFullYear()} Outpost</p>
    </div>
  );
}
