import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Agents" description="The Outpost agents installed on your devices." />
      <ComingSoon feature="Agent management" />
    </>
  );
}
