import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

interface NewThoughtDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Placeholder for the thought-capture dialog opened by the add-thought button (built in a later issue). */
export function NewThoughtDialog({ open, onOpenChange }: NewThoughtDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Thought</DialogTitle>
        </DialogHeader>
        <DialogFooter>
          <DialogClose>Close</DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
