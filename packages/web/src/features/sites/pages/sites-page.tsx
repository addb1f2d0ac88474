import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Sites" description="Group devices by location." />
      <ComingSoon feature="Site management" />
    </>
  );
}
