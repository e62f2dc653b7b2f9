import { Clock, Mic, Plug, type LucideIcon } from 'lucide-react';

import { Card, CardContent } from '@/components/ui/card';

const STEPS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Mic,
    title: 'Voice-powered assistant',
    text: 'Speak your thoughts, plans and worries as they come. Haven transcribes, sorts and keeps them for you.',
  },
  {
    icon: Plug,
    title: 'Integrate your daily tools',
    text: 'Connect your mail, calendar, team chat and notes so Haven can see what needs your attention.',
  },
  {
    icon: Clock,
    title: 'Save 20 hours a week',
    text: 'Get daily insights, an email digest and ready-to-review drafts instead of chasing loose ends.',
  },
];

/** The three 'How It Works' cards on the welcome screen. */
export function HowItWorks() {
  return (
    <section aria-labelledby="how-it-works" className="flex flex-col gap-4">
      <h2 id="how-it-works" className="text-xl font-semibold tracking-tight">
        How It Works
      </h2>
      <ol className="flex flex-col gap-3">
        {STEPS.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card>
              <CardContent className="flex gap-4 p-4">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div className="flex flex-col gap-1">
                  <h3 className="font-semibold">{title}</h3>
                  <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
                </div>
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}
