import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader title="Device" description="Hardware, networking, software and services of one device." />
      <ComingSoon feature="Device details" />
    </>
  );
}
