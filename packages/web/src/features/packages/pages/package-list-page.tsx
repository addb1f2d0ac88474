import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader
        title="Deployment Packages"
        description="Software packages built from ordered installation steps."
      />
      <ComingSoon feature="The package list" />
    </>
  );
}
