import { useMemo, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';

import { NotFoundRoute } from '@/app/routes/not-found';
import { RootLayout, type RouteHandle } from '@/app/routes/root';
import { RouteError } from '@/app/routes/route-error';
import { WelcomeRoute } from '@/app/routes/welcome';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { GuestRoute } from '@/features/auth/components/guest-route';
import { ProtectedRoute } from '@/features/auth/components/protected-route';

/**
 * Loads a screen's module only when its route is first visited (keeps the first bundle small). A
 * module's `prefetch` runs as the route's loader: the screen's queries start once its code is
 * there, without waiting for its first render.
 */
function screen<K extends string>(
  load: () => Promise<Record<K, ComponentType> & { prefetch?: () => void }>,
  name: K,
): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    const { prefetch } = module;
    return {
      Component: module[name],
      ...(prefetch && {
        loader: () => {
          prefetch();
          return null;
        },
      }),
    };
  };
}

/** The complete route table of spec section 2. */
/** Spec, Provider callback: a visitor is told why they land on /auth. */
const CALLBACK_VISITOR_TOAST = {
  title: 'Authentication required',
  description: 'Please log in to continue with the integration setup.',
};

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: FullPageSpinner,
    children: [
      { index: true, element: <Navigate to={paths.welcome.path} replace /> },

      // Visitor-only screens: a signed-in user is sent on.
      {
        element: <GuestRoute redirectTo={paths.home.path} />,
        children: [{ path: paths.welcome.path, Component: WelcomeRoute }],
      },
      {
        element: <GuestRoute redirectTo={paths.root.path} />,
        children: [
          {
            path: paths.auth.path,
            // The side panel beside the forms needs more than the phone column from 768 px up.
            handle: { wideColumn: true } satisfies RouteHandle,
            lazy: screen(() => import('@/app/routes/auth'), 'AuthRoute'),
          },
          {
            path: paths.verifyCode.path,
            lazy: screen(() => import('@/app/routes/verify-code'), 'VerifyCodeRoute'),
          },
        ],
      },

      // Public screens.
      {
        path: paths.verifyEmail.path,
        lazy: screen(() => import('@/app/routes/verify-email'), 'VerifyEmailRoute'),
      },
      {
        path: paths.resetPassword.path,
        lazy: screen(() => import('@/app/routes/reset-password'), 'ResetPasswordRoute'),
      },
      {
        path: paths.privacyPolicy.path,
        lazy: screen(() => import('@/app/routes/privacy-policy'), 'PrivacyPolicyRoute'),
      },
      { path: paths.debugDate.path, lazy: screen(() => import('@/app/routes/debug-date'), 'DebugDateRoute') },
      {
        path: paths.debugAudio.path,
        lazy: screen(() => import('@/app/routes/debug-audio'), 'DebugAudioRoute'),
      },

      // Signed-in screens; visitors go to /welcome.
      {
        element: <ProtectedRoute />,
        children: [
          {
            // The signed-in frame (capture, search, offline sync) loads with the first signed-in
            // screen, so a visitor's first bundle does not carry it.
            lazy: screen(() => import('@/app/routes/app/signed-in'), 'SignedInLayout'),
            children: [
              {
                lazy: screen(() => import('@/app/routes/app/shell'), 'ShellLayout'),
                children: [
                  {
                    path: paths.home.path,
                    lazy: screen(() => import('@/app/routes/app/insights'), 'InsightsRoute'),
                  },
                  {
                    path: paths.insights.path,
                    lazy: screen(() => import('@/app/routes/app/insights'), 'InsightsRoute'),
                  },
                  {
                    path: paths.assist.path,
                    lazy: screen(() => import('@/app/routes/app/assist'), 'AssistRoute'),
                  },
                  {
                    path: paths.integrations.path,
                    lazy: screen(() => import('@/app/routes/app/integrations'), 'IntegrationsRoute'),
                  },
                  {
                    path: paths.settings.path,
                    lazy: screen(() => import('@/app/routes/app/settings'), 'SettingsRoute'),
                  },
                ],
              },
              {
                path: paths.integration.path,
                lazy: screen(() => import('@/app/routes/app/integration'), 'IntegrationRoute'),
              },
              {
                path: paths.timeline.path,
                lazy: screen(() => import('@/app/routes/app/timeline'), 'TimelineRoute'),
              },
              {
                path: paths.conversations.path,
                lazy: screen(() => import('@/app/routes/app/conversations'), 'ConversationsRoute'),
              },
              {
                path: paths.conversation.path,
                lazy: screen(() => import('@/app/routes/app/conversation'), 'ConversationRoute'),
              },
            ],
          },
        ],
      },

      // The direct provider flow sends visitors to /auth instead (spec: "otherwise redirect to /auth").
      {
        element: <ProtectedRoute redirectTo={paths.auth.path} />,
        children: [
          {
            path: paths.directAuth.path,
            lazy: screen(() => import('@/app/routes/app/direct-auth'), 'DirectAuthRoute'),
          },
        ],
      },
      {
        element: <ProtectedRoute redirectTo={paths.auth.path} visitorToast={CALLBACK_VISITOR_TOAST} />,
        children: [
          {
            path: paths.directCallback.path,
            lazy: screen(() => import('@/app/routes/app/direct-callback'), 'DirectCallbackRoute'),
          },
        ],
      },

      { path: '*', Component: NotFoundRoute },
    ],
  },
];

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(routes), []);
  return <RouterProvider router={router} />;
}
