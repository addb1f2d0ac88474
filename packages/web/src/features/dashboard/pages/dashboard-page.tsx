import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Dashboard" description="An overview of your devices, deployments and licence." />
      <ComingSoon feature="The fleet dashboard" />
    </>
  );
}
