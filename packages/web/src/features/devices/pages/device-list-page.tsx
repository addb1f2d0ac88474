import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Devices" description="Every device in your organisation, live." />
      <ComingSoon feature="The device list" />
    </>
  );
}
