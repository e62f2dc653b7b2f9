import type { CaptureCategory } from '@haven/contracts/common';

export interface CategoryOption {
  value: CaptureCategory;
  label: string;
  description: string;
}

/** The three categories offered when capturing or editing, with the spec's wording. */
export const CATEGORY_OPTIONS: readonly CategoryOption[] = [
  {
    value: 'personal',
    label: 'Personal',
    description: 'Focus on your personal life, relationships, and well-being.',
  },
  {
    value: 'professional',
    label: 'Professional',
    description: 'Reflect on your work, career aspirations, and professional goals.',
  },
  {
    value: 'creative',
    label: 'Creative',
    description: 'Capture ideas, inspirations, and artistic thoughts.',
  },
];

export const CATEGORY_LABELS: Record<CaptureCategory, string> = {
  personal: 'Personal',
  professional: 'Professional',
  creative: 'Creative',
};
