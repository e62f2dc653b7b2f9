import { useLocation } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { PRIVACY_SECTIONS } from '@/features/legal/components/privacy-policy-sections';

/** Where Back leads: settings passes `{ from }` when it opens the policy, otherwise the welcome screen. */
function backTarget(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return from === paths.settings.path ? from : paths.welcome.path;
}

/** The static privacy policy (last updated April 19, 2025). */
export function PrivacyPolicyRoute() {
  const { state } = useLocation();
  return (
    <SimplePage backTo={backTarget(state)} title="Privacy Policy" description="Last updated: April 19, 2025">
      <div className="flex flex-col gap-6">
        {PRIVACY_SECTIONS.map(({ title, body }, index) => (
          <section key={title} aria-labelledby={`policy-${index}`} className="flex flex-col gap-2">
            <h2 id={`policy-${index}`} className="text-lg font-semibold tracking-tight">
              {index + 1}. {title}
            </h2>
            <div className="flex flex-col gap-2 text-sm leading-relaxed text-foreground/80 [&_li]:pl-1 [&_ul]:flex [&_ul]:list-disc [&_ul]:flex-col [&_ul]:gap-1.5 [&_ul]:pl-5">
              {body}
            </div>
          </section>
        ))}
      </div>
    </SimplePage>
  );
}
