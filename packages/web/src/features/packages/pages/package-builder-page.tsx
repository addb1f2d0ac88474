import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Package Builder" description="Build a package from ordered installation steps." />
      <ComingSoon feature="The package builder" />
    </>
  );
}
