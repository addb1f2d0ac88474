import { PageHeader } from '../../../components/ui/card';
import { ComingSoon } from '../../../components/ui/states';

export default function Page() {
  return (
    <>
      <PageHeader
        title="Users"
        description="Invite people to your organisation and choose what they can see."
      />
      <ComingSoon feature="User management" />
    </>
  );
}
