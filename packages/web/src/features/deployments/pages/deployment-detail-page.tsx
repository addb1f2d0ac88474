import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Deployment" description="Per-device progress and step logs." />
      <ComingSoon feature="Deployment details" />
    </>
  );
}
