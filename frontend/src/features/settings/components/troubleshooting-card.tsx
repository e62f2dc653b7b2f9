import { ChevronRight, Mic } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

export function TroubleshootingCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Troubleshooting</CardTitle>
        <CardDescription>Having trouble with voice capture?</CardDescription>
      </CardHeader>
      <CardContent>
        <Link
          to={paths.debugAudio.getHref()}
          className="flex items-center gap-3 rounded-lg border px-3 py-3 text-sm font-medium transition-colors hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <Mic className="size-4 text-accent" aria-hidden="true" />
          <span className="flex-1">Audio Recording Diagnostic</span>
          <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
        </Link>
      </CardContent>
    </Card>
  );
}
