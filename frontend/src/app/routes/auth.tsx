import { useLocation } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { paths, type AuthLocationState } from '@/config/paths';

/** Placeholder: the login and register forms arrive in a later issue. */
export function AuthRoute() {
  const state = useLocation().state as AuthLocationState | null;
  const tab = state?.tab === 'register' ? 'register' : 'login';
  return <SimplePage backTo={paths.welcome.path} title={tab === 'register' ? 'Create account' : 'Log in'} />;
}
