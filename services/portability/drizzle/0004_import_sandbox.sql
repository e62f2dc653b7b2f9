ALTER TABLE "portability"."transfers" ADD COLUMN "quarantine" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "portability"."transfers" ADD COLUMN "attempt" jsonb;