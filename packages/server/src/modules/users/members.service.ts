// The users module's statements that other modules run inside their own transactions (a tenant's
// first members when it is created, the binding and profile writes of signing in). The users and
// user_sites tables are written only by this module's queries; see docs/architecture.md.
export {
  bindInvitations,
  insertMember,
  insertMemberSites,
  setMemberName,
  setMemberAccess,
  updateMemberProfile,
} from './members.queries';
