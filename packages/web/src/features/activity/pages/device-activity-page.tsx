import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader
        title="Device Activity"
        description="Monitor device utilization and login activity across your organization."
      />
      <ComingSoon feature="Device activity" />
    </>
  );
}
