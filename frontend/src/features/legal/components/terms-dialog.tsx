import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

interface TermsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** A short, plain-language summary of the terms of service. */
export function TermsDialog({ open, onOpenChange }: TermsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Terms of Service</DialogTitle>
          <DialogDescription>The short version of the rules for using Haven.</DialogDescription>
        </DialogHeader>
        <ul className="flex list-disc flex-col gap-2 pl-5 text-sm leading-relaxed">
          <li>
            Haven is a personal tool. Keep your login to yourself; you are responsible for your account.
          </li>
          <li>What you write or say stays yours. We only use it to provide Haven&apos;s features to you.</li>
          <li>
            AI insights and drafts can be wrong. Review them before you act; Haven never sends an email
            without your confirmation.
          </li>
          <li>
            Don&apos;t use Haven to break the law or to harm others, and don&apos;t try to disrupt the
            service.
          </li>
          <li>You can stop using Haven and disconnect your integrations at any time.</li>
        </ul>
        <DialogFooter>
          <DialogClose>Close</DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
