import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader
        title="Audit Logs"
        description="Track and monitor all user actions performed in your organization."
      />
      <ComingSoon feature="The audit log" />
    </>
  );
}
