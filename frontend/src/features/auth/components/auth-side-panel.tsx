import { Lightbulb, Lock, Mic, Plug } from 'lucide-react';

const FEATURES = [
  { icon: Mic, title: 'Capture by voice', text: 'Speak a thought and Haven files it for you.' },
  { icon: Lightbulb, title: 'Daily insights', text: 'Summaries, themes and suggestions from your week.' },
  { icon: Plug, title: 'Your tools, connected', text: 'Mail and calendar in one calm digest.' },
  { icon: Lock, title: 'Private by design', text: 'Your thoughts are encrypted when saved.' },
];

/** What Haven offers, beside the forms on wide screens only (768 px and up). */
export function AuthSidePanel() {
  return (
    <aside
      aria-label="Why Haven"
      className="hidden rounded-2xl bg-accent-soft p-8 md:flex md:flex-col md:justify-center md:gap-6"
    >
      <div className="flex flex-col gap-2">
        <h2 className="text-2xl font-semibold tracking-tight">Your digital chief of staff</h2>
        <p className="text-sm text-muted-foreground">
          Haven helps multi-role professionals get back up to 20 hours a week.
        </p>
      </div>
      <ul className="flex flex-col gap-5">
        {FEATURES.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-card text-accent shadow-sm">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div className="flex flex-col gap-0.5">
              <span className="font-medium">{title}</span>
              <span className="text-sm text-muted-foreground">{text}</span>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
