import type { PreferencesPatch, UserPreferences } from '@haven/contracts/preferences';
import type { Db } from '@haven/kit/db';
import {
  findOrCreatePreferences,
  updatePreferences,
  type PreferencesRow,
} from '../db/preferences.repository';

/** Presenter: exactly the fields that may leave the service. */
export function presentPreferences(row: PreferencesRow): UserPreferences {
  return {
    askBeforeCalendarEvents: row.askBeforeCalendarEvents,
    askBeforeEmails: row.askBeforeEmails,
    includeThoughtContent: row.includeThoughtContent,
    weeklyReviewDay: row.weeklyReviewDay,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function readPreferences(input: { db: Db; userId: number }): Promise<UserPreferences> {
  return presentPreferences(await findOrCreatePreferences(input.db, input.userId));
}

export async function changePreferences(input: {
  db: Db;
  userId: number;
  patch: PreferencesPatch;
}): Promise<UserPreferences> {
  return presentPreferences(await updatePreferences(input.db, input.userId, input.patch));
}
