import type { CaptureCategory } from '@haven/contracts/common';
import { Toggle } from '@/components/ui/toggle';

const CATEGORIES: { value: CaptureCategory; label: string }[] = [
  { value: 'personal', label: 'Personal' },
  { value: 'professional', label: 'Professional' },
  { value: 'creative', label: 'Creative' },
];

interface CategoryPickerProps {
  value: CaptureCategory;
  onChange: (category: CaptureCategory) => void;
}

/** The thought's category as three toggle chips; exactly one is pressed. */
export function CategoryPicker({ value, onChange }: CategoryPickerProps) {
  return (
    <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
      {CATEGORIES.map((category) => (
        <Toggle
          key={category.value}
          size="sm"
          // 44 px high for a thumb, with the chip's small text.
          className="h-11 rounded-full"
          pressed={value === category.value}
          onClick={() => onChange(category.value)}
        >
          {category.label}
        </Toggle>
      ))}
    </div>
  );
}
