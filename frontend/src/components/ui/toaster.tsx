import { useEffect, useState } from 'react';

import { Toast, ToastClose, ToastDescription, ToastTitle, ToastViewport } from '@/components/ui/toast';
import { dismissToast, TOAST_DURATION, useToast, type ToasterToast } from '@/hooks/use-toast';

/** Renders the toast queue; mount once near the root. */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastViewport label="Notifications">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </ToastViewport>
  );
}

function ToastItem({ toast }: { toast: ToasterToast }) {
  const { id, title, description, action, variant, duration = TOAST_DURATION } = toast;
  // Hovering or focusing a toast holds it open so it can be read or acted on.
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || !Number.isFinite(duration)) return;
    const timer = window.setTimeout(() => dismissToast(id), duration);
    return () => window.clearTimeout(timer);
  }, [id, paused, duration]);

  return (
    <Toast
      variant={variant}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="grid min-w-0 gap-1">
        {title && <ToastTitle>{title}</ToastTitle>}
        {description && <ToastDescription>{description}</ToastDescription>}
      </div>
      {action}
      <ToastClose onClick={() => dismissToast(id)} />
    </Toast>
  );
}
