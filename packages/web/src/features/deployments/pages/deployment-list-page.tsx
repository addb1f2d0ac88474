import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Deployments" description="Every deployment job and its progress." />
      <ComingSoon feature="Deployment history" />
    </>
  );
}
