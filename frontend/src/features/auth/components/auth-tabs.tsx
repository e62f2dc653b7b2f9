import { useState } from 'react';

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { AuthLocationState } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { RegisterForm } from '@/features/auth/components/register-form';

type AuthTab = NonNullable<AuthLocationState['tab']>;

/** 'Log in' and 'Create account' side by side; only the chosen form is mounted. */
export function AuthTabs({ initialTab }: { initialTab: AuthTab }) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  return (
    <Tabs value={tab} onValueChange={(next) => setTab(next === 'register' ? 'register' : 'login')}>
      <TabsList aria-label="Account">
        <TabsTrigger value="login">Log in</TabsTrigger>
        <TabsTrigger value="register">Create account</TabsTrigger>
      </TabsList>
      <TabsContent value="login">
        <LoginForm />
      </TabsContent>
      <TabsContent value="register">
        <RegisterForm />
      </TabsContent>
    </Tabs>
  );
}
