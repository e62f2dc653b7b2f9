import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { PageHeader } from '@/components/layouts/page-header';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';

interface SimplePageProps {
  title: ReactNode;
  description?: ReactNode;
  /** Shows a back arrow linking here. */
  backTo?: string;
  children?: ReactNode;
  className?: string;
}

/** A screen outside the home shell: optional back link, the heading, then the content. */
export function SimplePage({ title, description, backTo, children, className }: SimplePageProps) {
  return (
    <main
      className={cn(
        'flex flex-1 flex-col gap-6 px-4 pt-[calc(1rem+env(safe-area-inset-top))] pb-[calc(2rem+env(safe-area-inset-bottom))]',
        className,
      )}
    >
      {backTo && (
        <Link
          to={backTo}
          aria-label="Back"
          className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), '-ml-2')}
        >
          <ArrowLeft aria-hidden="true" className="!size-5" />
        </Link>
      )}
      <PageHeader title={title} description={description} className={backTo ? '-mt-2' : 'pt-4'} />
      {children}
    </main>
  );
}
